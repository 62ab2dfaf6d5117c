/**
 * A graph of the document as the Graphs and Fusion tabs draw it: nodes, edges, and the
 * groups it is shown in, each from what torch emitted:
 *
 * - by module, where Dynamo named parameter inputs after their module
 *   (`l_self_modules_blocks_modules_0_modules_attn_..._parameters_weight_`, read by capture
 *   into the node's `module`): a node reading a
 *   parameter belongs to its module; one reading none to the module that calls the modules
 *   whose parameters are read before and after it (ownerBetween);
 * - else by the user code each node was traced from (its `source`: function, then line), in
 *   runs of consecutive nodes, e.g. a `%%tcompile` cell's graph or an AOT/post-grad graph;
 * - else (no source at all) in consecutive runs of nodes.
 */

import { baseName } from './format';
import { Graph, GraphNode } from './types';

export const COLLAPSE_OVER = 300;
const RUN_GROUPS = 40;

export type GroupBy = 'module' | 'source' | 'runs';

export interface GNode {
  index: number;
  node: GraphNode;
  /** module path (by module) or [file + function, line] (by source); null: inputs, output */
  path: string[] | null;
}

export interface GraphModel {
  nodes: GNode[];
  edges: Array<[number, number]>;
  byName: Map<string, number>;
  groupBy: GroupBy;
}

/** The module an input or attribute node belongs to, as capture read it from Dynamo's name
 * (`l_self_modules_blocks_modules_0_modules_attn_parameters_weight_` → blocks.0.attn:
 * the node's `module`, tcexplore/capture/parsers/fx_text.py); null for any other node. */
export function modulePath(node: GraphNode): string[] | null {
  return Array.isArray(node.module) ? node.module : null;
}

function edgesOf(
  raw: GraphNode[],
  byName: Map<string, number>
): Array<[number, number]> {
  const edges: Array<[number, number]> = [];
  raw.forEach((n, i) => {
    const seen = new Set<number>();
    for (const a of Array.isArray(n.args) ? n.args : []) {
      const j = byName.get(String(a));
      if (j !== undefined && j !== i && !seen.has(j)) {
        seen.add(j);
        edges.push([j, i]);
      }
    }
  });
  return edges;
}

const isEnd = (n: GraphNode) => n.op === 'placeholder' || n.op === 'output';

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

function modulePaths(
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
function sourcePaths(raw: GraphNode[]): Array<string[] | null> {
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

export function buildGraph(graph: Graph): GraphModel {
  const raw = Array.isArray(graph.nodes) ? graph.nodes : [];
  const byName = new Map<string, number>();
  raw.forEach((n, i) => byName.set(String(n.name), i));
  const edges = edgesOf(raw, byName);
  const own = raw.map(n =>
    n.op === 'placeholder' || n.op === 'get_attr' ? modulePath(n) : null
  );
  let groupBy: GroupBy = own.some(m => m !== null)
    ? 'module'
    : raw.some(n => !isEnd(n) && n.source?.function)
      ? 'source'
      : 'runs';
  const paths =
    groupBy === 'module'
      ? modulePaths(raw, edges, own)
      : groupBy === 'source'
        ? sourcePaths(raw)
        : raw.map(() => null);
  if (groupBy === 'source' && !paths.some(p => p)) {
    groupBy = 'runs';
  }
  return {
    nodes: raw.map((node, index) => ({ index, node, path: paths[index] })),
    edges,
    byName,
    groupBy
  };
}

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

export interface VNode {
  id: string;
  label: string;
  sub: string;
  /** a graph node's index, or -1 for a collapsed group */
  node: number;
  /** the group it stands for (collapsed) or its innermost group ('' for none) */
  group: string;
  count: number;
  /** the open container it is drawn in: an index into VGraph.containers, or -1 */
  home: number;
}

/** An open group drawn as a box around what it holds. */
export interface VContainer {
  group: string;
  label: string;
  detail: string;
  /** the container it is drawn in, or -1 */
  parent: number;
}

export interface VGraph {
  nodes: VNode[];
  edges: Array<[number, number]>;
  containers: VContainer[];
}

function shapeOf(node: GraphNode): string {
  const meta = node.meta;
  if (meta && meta.kind === 'tensor' && Array.isArray(meta.shape)) {
    return `${String(meta.dtype ?? '')}[${(meta.shape as unknown[]).join(', ')}]`;
  }
  return '';
}

/** What is drawn: a node whose groups are all open, else one box for its outermost closed group. */
export function visibleGraph(
  model: GraphModel,
  grouping: Grouping,
  expanded: (key: string) => boolean
): VGraph {
  const nodes: VNode[] = [];
  const containers: VContainer[] = [];
  const containerOf = new Map<string, number>();
  const slot = new Map<string, number>();
  const of: number[] = [];
  /** The container drawn for the open groups chain[0..k), innermost; created outermost first. */
  const homeOf = (chain: string[], k: number): number => {
    let home = -1;
    for (let j = 0; j < k; j++) {
      const key = chain[j];
      if (!isContainer(key) || (grouping.members.get(key)?.length ?? 0) < 2) {
        continue; // a frame around one node says no more than the node
      }
      let at = containerOf.get(key);
      if (at === undefined) {
        at = containers.length;
        containerOf.set(key, at);
        containers.push({
          group: key,
          label: grouping.labels.get(key) ?? key,
          detail: grouping.details.get(key) ?? '',
          parent: home
        });
      }
      home = at;
    }
    return home;
  };
  for (const g of model.nodes) {
    const chain = grouping.chains[g.index];
    const closed = chain.findIndex(key => !expanded(key));
    if (closed < 0) {
      of.push(nodes.length);
      nodes.push({
        id: `n${g.index}`,
        label: String(g.node.name),
        sub: `${g.node.op === 'call_function' || g.node.op === 'call_method' ? '' : g.node.op + ' '}${String(g.node.target)} ${shapeOf(g.node)}`.trim(),
        node: g.index,
        group: chain[chain.length - 1] ?? '',
        count: 1,
        home: homeOf(chain, chain.length)
      });
      continue;
    }
    const key = chain[closed];
    let at = slot.get(key);
    if (at === undefined) {
      at = nodes.length;
      slot.set(key, at);
      nodes.push({
        id: `g${key}`,
        label: grouping.labels.get(key) ?? key,
        sub: '',
        node: -1,
        group: key,
        count: 0,
        home: homeOf(chain, closed)
      });
    }
    nodes[at].count += 1;
    of.push(at);
  }
  for (const v of nodes) {
    if (v.node < 0) {
      const detail = grouping.details.get(v.group);
      v.sub = `${v.count} nodes${detail ? ` · ${detail}` : ' — click to open'}`;
    }
  }
  const seen = new Set<string>();
  const edges: Array<[number, number]> = [];
  for (const [a, b] of model.edges) {
    const from = of[a];
    const to = of[b];
    const id = `${from}>${to}`;
    if (from !== to && !seen.has(id)) {
      seen.add(id);
      edges.push([from, to]);
    }
  }
  return { nodes, edges, containers };
}

/** Nodes whose name, target or source code contains the query (case-insensitive). */
export function search(model: GraphModel, query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) {
    return [];
  }
  return model.nodes
    .filter(g =>
      `${g.node.name}\u0000${g.node.target}\u0000${g.node.source?.code ?? ''}`
        .toLowerCase()
        .includes(q)
    )
    .map(g => g.index);
}
