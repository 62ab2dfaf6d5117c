// How the extension's graph layout scales: the chain-with-skips graph of graph.spec.ts at
// 1,000, 10,000 and 100,000 nodes, each laid out 5 times in one run (median), and each
// size's time per node against the smallest's (near 1: linear). Needs the built extension:
//
//     (cd extension && jlpm build:lib) && node --no-warnings benchmarks/layout_speed.mjs
import { layout } from '../extension/lib/model/layout.js';

function graph(n) {
  const edges = [];
  for (let i = 1; i < n; i++) {
    edges.push([i - 1, i]);
    if (i % 7 === 0) edges.push([i - 5, i]);
  }
  return { widths: new Array(n).fill(120), edges };
}

function medianMs(input) {
  const times = [];
  for (let r = 0; r < 5; r++) {
    const began = performance.now();
    layout(input);
    times.push(performance.now() - began);
  }
  return times.sort((a, b) => a - b)[2];
}

let perNodeOfSmallest = null;
for (const n of [1_000, 10_000, 100_000]) {
  const ms = medianMs(graph(n));
  perNodeOfSmallest ??= ms / n;
  const ratio = ms / n / perNodeOfSmallest;
  console.log(`${String(n).padStart(7)} nodes  ${ms.toFixed(1).padStart(8)} ms  per node x${ratio.toFixed(2)}`);
}
