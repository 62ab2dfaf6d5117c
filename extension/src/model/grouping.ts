/**
 * The groups a graph is shown in (model/graph.ts), nested: module path prefixes, else a
 * function then its runs of lines, else runs of consecutive nodes; each with its label and
 * detail line, and a group holding exactly its parent's nodes folded into it.
 */

import { baseName } from './format';
import { GraphModel } from './graph';

const RUN_GROUPS = 40;

export interface Grouping {
  /** per node: the groups it is in, outermost first (none: drawn on its own at the top) */
  chains: string[][];
  labels: Map<string, string>;
  /** a line under a group's label: its lines, or its code */
  details: Map<string, string>;
  /** every node under a group, at any depth, in graph order */
  members: Map<string, number[]>;
  /** 1 for the outermost groups */
  depth: Map<string, number>;
}

/** Groups drawn as a box around their nodes when open: modules and user code, not the inputs, output or runs. */
export function isContainer(key: string): boolean {
  return key.startsWith('m:') || key.startsWith('s:');
}

function lineSpan(lines: number[]): string {
  const known = lines.filter(n => !isNaN(n));
  if (!known.length) {
    return '';
  }
  const [low, high] = [Math.min(...known), Math.max(...known)];
  return low === high ? `line ${low}` : `lines ${low}–${high}`;
}

/** The chain of groups of every node: module path prefixes, function then line runs, or runs of nodes. */
function chainsOf(
  model: GraphModel,
  fileLabel: (file: string) => string,
  labels: Map<string, string>,
  details: Map<string, string>
): string[][] {
  const size = Math.max(1, Math.ceil(model.nodes.length / RUN_GROUPS));
  const lines = new Map<string, number[]>();
  let fnRun = '';
  let fnKey = '';
  let lineRun = '';
  let lineKey = '';
  const chains = model.nodes.map(g => {
    if (g.node.op === 'placeholder' && !g.path) {
      labels.set('(inputs)', '(inputs)');
      return ['(inputs)'];
    }
    if (g.node.op === 'output') {
      labels.set('(output)', '(output)');
      return ['(output)'];
    }
    if (model.groupBy === 'module') {
      const path = g.path ?? [];
      return path.map((_, k) => {
        const name = path.slice(0, k + 1).join('.');
        labels.set('m:' + name, name);
        return 'm:' + name;
      });
    }
    if (model.groupBy === 'source' && g.path) {
      const [fn, line] = g.path;
      if (fn !== fnRun) {
        fnRun = fn;
        fnKey = `s:${g.index}`;
        lineRun = '';
        const [file, name] = fn.split('\u0000');
        labels.set(fnKey, `${name}() · ${fileLabel(file)}`);
        lines.set(fnKey, []);
      }
      if (line !== lineRun) {
        lineRun = line;
        lineKey = `${fnKey}:${g.index}`;
        labels.set(lineKey, `line ${line}`);
      }
      lines.get(fnKey)!.push(Number(line));
      if (!details.has(lineKey) && g.node.source?.code) {
        details.set(lineKey, g.node.source.code);
      }
      return [fnKey, lineKey];
    }
    const start = Math.floor(g.index / size) * size;
    labels.set(
      `r:${start}`,
      `nodes ${start}–${Math.min(model.nodes.length, start + size) - 1}`
    );
    return [`r:${start}`];
  });
  lines.forEach((found, key) => details.set(key, lineSpan(found)));
  apart(lines, labels, details);
  return chains;
}

/**
 * Runs of one function split by another's nodes (a training step's forward() around the
 * library calls it makes) would carry one title: each takes its lines into its title, and
 * where two runs cover the same lines (a backward graph passing a line twice) its place.
 */
function apart(
  runs: Map<string, number[]>,
  labels: Map<string, string>,
  details: Map<string, string>
): void {
  const byLabel = new Map<string, string[]>();
  runs.forEach((_, key) =>
    byLabel.set(labels.get(key)!, [
      ...(byLabel.get(labels.get(key)!) ?? []),
      key
    ])
  );
  for (const [label, keys] of byLabel) {
    if (keys.length < 2) {
      continue;
    }
    // the lines (and a run's place) go before the file: a collapsed box's clipped title keeps them
    const spans = keys.map(key => details.get(key) ?? '');
    keys.forEach((key, k) => {
      const same = spans.filter(span => span === spans[k]).length > 1;
      const told = [spans[k], same ? `run ${k + 1}/${keys.length}` : '']
        .filter(Boolean)
        .join(', ');
      labels.set(key, label.replace(' · ', ` ${told} · `));
      details.set(key, '');
    });
  }
}

/**
 * The groups of a graph, nested; a group holding exactly its parent's nodes is folded into
 * it. `fileLabel` names a user file in group labels (a notebook cell as "cell [n]").
 */
export function groupNodes(
  model: GraphModel,
  fileLabel: (file: string) => string = baseName
): Grouping {
  const labels = new Map<string, string>();
  const details = new Map<string, string>();
  let chains = chainsOf(model, fileLabel, labels, details);
  const count = new Map<string, number>();
  const parent = new Map<string, string>();
  const level = new Map<string, number>();
  for (const chain of chains) {
    chain.forEach((key, k) => {
      count.set(key, (count.get(key) ?? 0) + 1);
      level.set(key, k);
      if (k) {
        parent.set(key, chain[k - 1]);
      }
    });
  }
  const folded = new Set<string>();
  const deepestFirst = [...parent.keys()].sort(
    (a, b) => level.get(b)! - level.get(a)!
  );
  for (const key of deepestFirst) {
    const up = parent.get(key)!;
    if (count.get(key) === count.get(up)) {
      folded.add(key);
      if (model.groupBy === 'module') {
        labels.set(up, labels.get(key)!); // the inner name says more
      } else if (!details.get(up) || /^line /.test(details.get(up)!)) {
        details.set(up, details.get(key) ?? '');
      }
    }
  }
  if (folded.size) {
    chains = chains.map(chain => chain.filter(key => !folded.has(key)));
  }
  const members = new Map<string, number[]>();
  const depth = new Map<string, number>();
  chains.forEach((chain, i) =>
    chain.forEach((key, k) => {
      depth.set(key, k + 1);
      const list = members.get(key);
      if (list) {
        list.push(i);
      } else {
        members.set(key, [i]);
      }
    })
  );
  return { chains, labels, details, members, depth };
}
