/**
 * What of a grouped graph is drawn: each node whose groups are all open, one box for each
 * closed group, open groups as containers around what they hold, and the edges between
 * what is drawn.
 */

import { GraphModel } from './graph';
import { Grouping, isContainer } from './grouping';
import { GraphNode } from './types';

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

/**
 * The container drawn for the open groups chain[0..k), innermost, or -1: each group's
 * container is added to `containers` the first time, outermost first.
 */
function containerHomes(
  grouping: Grouping,
  containers: VContainer[]
): (chain: string[], k: number) => number {
  const containerOf = new Map<string, number>();
  return (chain, k) => {
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
}

/** The edges between what is drawn (`of`: each graph node's drawn node), once each, none to itself. */
function visibleEdges(
  edges: Array<[number, number]>,
  of: number[]
): Array<[number, number]> {
  const seen = new Set<string>();
  const drawn: Array<[number, number]> = [];
  for (const [a, b] of edges) {
    const from = of[a];
    const to = of[b];
    const id = `${from}>${to}`;
    if (from !== to && !seen.has(id)) {
      seen.add(id);
      drawn.push([from, to]);
    }
  }
  return drawn;
}

/** What is drawn: a node whose groups are all open, else one box for its outermost closed group. */
export function visibleGraph(
  model: GraphModel,
  grouping: Grouping,
  expanded: (key: string) => boolean
): VGraph {
  const nodes: VNode[] = [];
  const containers: VContainer[] = [];
  const homeOf = containerHomes(grouping, containers);
  const slot = new Map<string, number>();
  const of: number[] = [];
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
  return { nodes, edges: visibleEdges(model.edges, of), containers };
}
