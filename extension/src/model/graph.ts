/**
 * A graph of the document as the Graphs and Fusion tabs draw it: nodes, edges, and the
 * groups big graphs are collapsed into.
 *
 * Groups come from module paths where the graph has them: Dynamo names parameter inputs
 * after their module (`l_self_modules_blocks_modules_0_modules_attn_..._parameters_weight_`),
 * and each compute node belongs to the module of the next parameter used in graph order
 * (a LayerNorm's mean runs before its weight is read). Graphs without module names
 * (AOT, post-grad) are grouped into consecutive runs of nodes.
 */

import { Graph, GraphNode } from './types';

export const COLLAPSE_OVER = 300;
const RUN_GROUPS = 40;

export interface GNode {
  index: number;
  node: GraphNode;
  module: string[] | null;
}

export interface GraphModel {
  nodes: GNode[];
  edges: Array<[number, number]>;
  byName: Map<string, number>;
  hasModules: boolean;
}

const PARAM = /^l_+self_+(?:modules_)?(.*?)_(?:parameters|buffers)_/;

/** `l_self_modules_blocks_modules_0_modules_attn_parameters_weight_` → blocks.0.attn */
export function modulePath(name: string): string[] | null {
  const m = PARAM.exec(name);
  if (!m) {
    return null;
  }
  return m[1] ? m[1].split('_modules_') : [];
}

export function buildGraph(graph: Graph): GraphModel {
  const raw = Array.isArray(graph.nodes) ? graph.nodes : [];
  const byName = new Map<string, number>();
  raw.forEach((n, i) => byName.set(String(n.name), i));
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
  const own = raw.map(n => (n.op === 'placeholder' || n.op === 'get_attr' ? modulePath(String(n.name)) : null));
  const hasModules = own.some(m => m !== null);
  const uses: Array<string[] | null> = raw.map(() => null);
  edges.forEach(([from, to]) => {
    if (own[from] && !uses[to]) {
      uses[to] = own[from];
    }
  });
  const modules: Array<string[] | null> = raw.map(() => null);
  let next: string[] | null = null;
  for (let i = raw.length - 1; i >= 0; i--) {
    const n = raw[i];
    if (own[i]) {
      modules[i] = own[i];
      continue;
    }
    if (n.op === 'placeholder' || n.op === 'output') {
      continue;
    }
    if (uses[i]) {
      next = uses[i];
    }
    modules[i] = next;
  }
  let last: string[] | null = null; // nodes after the last parameter use: the last module
  raw.forEach((n, i) => {
    if (modules[i]) {
      last = modules[i];
    } else if (n.op !== 'placeholder' && n.op !== 'output') {
      modules[i] = last;
    }
  });
  return {
    nodes: raw.map((node, index) => ({ index, node, module: hasModules ? modules[index] : null })),
    edges,
    byName,
    hasModules
  };
}

export interface Grouping {
  keys: string[];
  labels: Map<string, string>;
  members: Map<string, number[]>;
}

/** Group key of every node: its module path cut at `depth`, or its run of nodes. */
export function groupNodes(model: GraphModel, depth: number): Grouping {
  const keys: string[] = [];
  const labels = new Map<string, string>();
  const members = new Map<string, number[]>();
  const size = Math.max(1, Math.ceil(model.nodes.length / RUN_GROUPS));
  for (const g of model.nodes) {
    let key: string;
    let label: string;
    if (g.node.op === 'placeholder' && !g.module) {
      key = label = '(inputs)';
    } else if (g.node.op === 'output') {
      key = label = '(output)';
    } else if (model.hasModules) {
      const path = (g.module ?? []).slice(0, depth);
      key = 'm:' + path.join('.');
      label = path.length ? path.join('.') : '(top level)';
    } else {
      const start = Math.floor(g.index / size) * size;
      const end = Math.min(model.nodes.length, start + size) - 1;
      key = `r:${start}`;
      label = `nodes ${start}–${end}`;
    }
    keys.push(key);
    labels.set(key, label);
    const list = members.get(key);
    if (list) {
      list.push(g.index);
    } else {
      members.set(key, [g.index]);
    }
  }
  return { keys, labels, members };
}

export interface VNode {
  id: string;
  label: string;
  sub: string;
  /** a graph node's index, or -1 for a collapsed group */
  node: number;
  group: string;
  count: number;
}

export interface VGraph {
  nodes: VNode[];
  edges: Array<[number, number]>;
}

function shapeOf(node: GraphNode): string {
  const meta = node.meta;
  if (meta && meta.kind === 'tensor' && Array.isArray(meta.shape)) {
    return `${String(meta.dtype ?? '')}[${(meta.shape as unknown[]).join(', ')}]`;
  }
  return '';
}

/** What is drawn: every node of an expanded group, one box per collapsed group. */
export function visibleGraph(model: GraphModel, grouping: Grouping, expanded: (key: string) => boolean): VGraph {
  const nodes: VNode[] = [];
  const slot = new Map<string, number>();
  const of: number[] = [];
  for (const g of model.nodes) {
    const key = grouping.keys[g.index];
    if (expanded(key)) {
      of.push(nodes.length);
      nodes.push({
        id: `n${g.index}`,
        label: String(g.node.name),
        sub: `${g.node.op === 'call_function' || g.node.op === 'call_method' ? '' : g.node.op + ' '}${String(g.node.target)} ${shapeOf(g.node)}`.trim(),
        node: g.index,
        group: key,
        count: 1
      });
    } else {
      let at = slot.get(key);
      if (at === undefined) {
        at = nodes.length;
        slot.set(key, at);
        nodes.push({ id: `g${key}`, label: grouping.labels.get(key) ?? key, sub: '', node: -1, group: key, count: 0 });
      }
      nodes[at].count += 1;
      of.push(at);
    }
  }
  for (const v of nodes) {
    if (v.node < 0) {
      v.sub = `${v.count} nodes — click to expand`;
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
  return { nodes, edges };
}

/** Nodes whose name, target or source code contains the query (case-insensitive). */
export function search(model: GraphModel, query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) {
    return [];
  }
  return model.nodes
    .filter(g => `${g.node.name}\u0000${g.node.target}\u0000${g.node.source?.code ?? ''}`.toLowerCase().includes(q))
    .map(g => g.index);
}
