/**
 * The path each node of a graph is grouped by (model/graph.ts): its module, placed between
 * the modules whose parameters are read before and after it (ownerBetween); or its user
 * code's function and line.
 */

import { GraphNode } from './types';

export const isEnd = (n: GraphNode) =>
  n.op === 'placeholder' || n.op === 'output';

const lineOf = (n: GraphNode) =>
  n.source?.file && typeof n.source.line === 'number'
    ? `${n.source.file}:${n.source.line}`
    : null;

interface Use {
  path: string[];
  line: string | null;
}

function commonPrefix(a: string[], b: string[]): string[] {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) {
    k++;
  }
  return a.slice(0, k);
}

/**
 * A node that reads no parameter, between the parameter uses of modules P and N (graph
 * order), runs in the code of the module that calls both: their common prefix (Attention's
 * own split, mask and softmax between its qkv and proj Linears belong to attn, not to
 * proj). At a boundary between siblings (one block's last module, the next block's first),
 * a node on the line that called P (or N) belongs to P's (or N's) sibling: a residual add
 * on the line of the block's MLP call is that block's. `siblings`: the depth of the
 * shallowest boundary between consecutive uses (blocks.0.* to blocks.1.*: 1).
 */
function ownerBetween(
  node: GraphNode,
  p: Use | null,
  n: Use | null,
  siblings: number
): string[] {
  const before = p?.path ?? [];
  const after = n?.path ?? [];
  // before the first use or after the last, the other side is a sibling at the graph's level
  const common =
    p && n ? commonPrefix(before, after) : (p ?? n)!.path.slice(0, siblings);
  const line = lineOf(node);
  // Between modules with nothing in common (the graph's own level), a node on the very line
  // that reads a module's parameter runs in that module's code: a hand-written RMSNorm's
  // pow, mean and rsqrt on the line of its `* self.weight`. (Inside a module, the line that
  // reads a library layer's parameter is the caller's: Attention's split stays Attention's.)
  if (line && common.length === 0) {
    if (n && line === n.line) {
      return n.path;
    }
    if (p && line === p.line) {
      return p.path;
    }
  }
  if (line && p && common.length < before.length - 1 && line === p.line) {
    return before.slice(0, common.length + 1);
  }
  if (line && n && common.length < after.length - 1 && line === n.line) {
    return after.slice(0, common.length + 1);
  }
  return common;
}

export function modulePaths(
  raw: GraphNode[],
  edges: Array<[number, number]>,
  own: Array<string[] | null>
): Array<string[] | null> {
  const uses: Array<string[] | null> = raw.map(() => null);
  edges.forEach(([from, to]) => {
    if (own[from] && !uses[to]) {
      uses[to] = own[from];
    }
  });
  const use = (i: number): Use => ({ path: uses[i]!, line: lineOf(raw[i]) });
  const previous: Array<Use | null> = [];
  let last: Use | null = null;
  let siblings = Infinity;
  raw.forEach((_, i) => {
    previous.push(last);
    if (uses[i]) {
      if (last && last.path.join('.') !== uses[i]!.join('.')) {
        siblings = Math.min(siblings, commonPrefix(last.path, uses[i]!).length);
      }
      last = use(i);
    }
  });
  const modules: Array<string[] | null> = raw.map(() => null);
  let next: Use | null = null;
  for (let i = raw.length - 1; i >= 0; i--) {
    if (own[i]) {
      modules[i] = own[i];
    } else if (uses[i]) {
      next = use(i);
      modules[i] = uses[i];
    } else if (!isEnd(raw[i]) && (previous[i] || next)) {
      // with no source to place it by (a synthetic graph), a node joins the next module
      modules[i] = lineOf(raw[i])
        ? ownerBetween(raw[i], previous[i], next, siblings)
        : (next ?? previous[i])!.path;
    }
  }
  return modules;
}

/** [file + function, line] of each node's user code; a node without one (a getitem) joins its neighbour. */
export function sourcePaths(raw: GraphNode[]): Array<string[] | null> {
  const own = raw.map(n => {
    const s = n.source;
    return !isEnd(n) && s && s.file && s.function
      ? [`${s.file}\u0000${s.function}`, String(s.line ?? '?')]
      : null;
  });
  const paths: Array<string[] | null> = raw.map(() => null);
  let last: string[] | null = null;
  raw.forEach((n, i) => {
    if (!isEnd(n)) {
      last = own[i] ?? last;
      paths[i] = last;
    }
  });
  const first = paths.find(p => p !== null) ?? null;
  raw.forEach((n, i) => {
    if (!isEnd(n) && !paths[i]) {
      paths[i] = first; // the nodes before the first one with a source
    }
  });
  return paths;
}
