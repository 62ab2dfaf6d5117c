/**
 * A graph of the document as the Graphs and Fusion tabs draw it: nodes, edges, and the
 * groups it is shown in, each from what torch emitted:
 *
 * - by module, where Dynamo named parameter inputs after their module
 *   (`l_self_modules_blocks_modules_0_modules_attn_..._parameters_weight_`, read by capture
 *   into the node's `module`): a node reading a
 *   parameter belongs to its module; one reading none to the module that calls the modules
 *   whose parameters are read before and after it (ownerBetween, graphpaths.ts);
 * - else by the user code each node was traced from (its `source`: function, then line), in
 *   runs of consecutive nodes, e.g. a `%%tcompile` cell's graph or an AOT/post-grad graph;
 * - else (no source at all) in consecutive runs of nodes.
 *
 * Each node's path is read in graphpaths.ts, its groups made in grouping.ts, and what is
 * drawn of them chosen in visiblegraph.ts.
 */

import { isEnd, modulePaths, sourcePaths } from './graphpaths';
import { Graph, GraphNode } from './types';

export const COLLAPSE_OVER = 300;

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
