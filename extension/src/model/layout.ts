/**
 * A layered layout for dataflow graphs, fast enough for thousands of nodes (linear passes,
 * no crossing minimisation beyond barycentres): rank = longest path from the inputs, then
 * every node moves down to just above its first user (so constants and parameters sit
 * beside their use rather than in one wide top row), x follows the mean x of a node's inputs
 * and is pushed right to avoid overlap; inputs without a placed predecessor go to the right
 * of their row. FX graphs arrive topologically ordered; an edge
 * pointing backwards in that order (possible between collapsed groups) does not rank.
 */

export interface LayoutInput {
  widths: number[];
  edges: Array<[number, number]>;
}

export interface Layout {
  x: number[];
  y: number[];
  width: number;
  height: number;
}

export const NODE_HEIGHT = 34;
const RANK_GAP = 26;
const NODE_GAP = 16;

export function layout({ widths, edges }: LayoutInput): Layout {
  const n = widths.length;
  const preds: number[][] = widths.map(() => []);
  const succs: number[][] = widths.map(() => []);
  for (const [a, b] of edges) {
    if (a < b) {
      preds[b].push(a);
      succs[a].push(b);
    }
  }
  const rank = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    for (const p of preds[i]) {
      rank[i] = Math.max(rank[i], rank[p] + 1);
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    if (succs[i].length > 0) {
      rank[i] = Math.max(rank[i], Math.min(...succs[i].map(s => rank[s])) - 1);
    }
  }
  const x = new Array<number>(n).fill(0);
  const y = rank.map(r => r * (NODE_HEIGHT + RANK_GAP));
  const rows = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const row = rows.get(rank[i]);
    if (row) {
      row.push(i);
    } else {
      rows.set(rank[i], [i]);
    }
  }
  const centre = (i: number) => x[i] + widths[i] / 2;
  let width = 0;
  for (const r of [...rows.keys()].sort((a, b) => a - b)) {
    const row = rows.get(r)!;
    const wanted = row.map(i => {
      const ins = preds[i];
      return ins.length ? ins.reduce((s, p) => s + centre(p), 0) / ins.length - widths[i] / 2 : Infinity;
    });
    const order = row.map((_, k) => k).sort((a, b) => wanted[a] - wanted[b] || row[a] - row[b]);
    let edge = 0;
    for (const k of order) {
      const i = row[k];
      x[i] = Math.max(edge, isFinite(wanted[k]) ? wanted[k] : edge);
      edge = x[i] + widths[i] + NODE_GAP;
    }
    width = Math.max(width, edge);
  }
  const height = n ? Math.max(...rank) * (NODE_HEIGHT + RANK_GAP) + NODE_HEIGHT : 0;
  return { x, y, width, height };
}
