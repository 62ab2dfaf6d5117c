/**
 * Sizes a document declares, bounded before DOM is built for them: a notebook output comes
 * from anyone (the renderer is `safe`), and its graphs and texts can be any size. Past a
 * bound a view draws the first part and says so in one line.
 */

import { Graph } from './types';

/** Nodes of one graph a view lays out (graph order is topological: a prefix is a graph). */
export const MAX_GRAPH_NODES = 50_000;
/** Characters of one code text a view shows (capture keeps 2,000,000 of any text). */
export const MAX_CODE_CHARS = 4_000_000;

export interface Bounded<T> {
  value: T;
  /** a one-line note when part was left out, else null */
  note: string | null;
}

export function boundedGraph(graph: Graph): Bounded<Graph> {
  const nodes = Array.isArray(graph.nodes) ? graph.nodes : [];
  if (nodes.length <= MAX_GRAPH_NODES) {
    return { value: graph, note: null };
  }
  return {
    value: { ...graph, nodes: nodes.slice(0, MAX_GRAPH_NODES) },
    note: `Drawn: the first ${MAX_GRAPH_NODES.toLocaleString('en')} of ${nodes.length.toLocaleString('en')} nodes (a view's limit).`
  };
}

export function boundedText(text: string): Bounded<string> {
  if (text.length <= MAX_CODE_CHARS) {
    return { value: text, note: null };
  }
  return {
    value: text.slice(0, MAX_CODE_CHARS),
    note: `Shown: the first ${MAX_CODE_CHARS.toLocaleString('en')} of ${text.length.toLocaleString('en')} characters (a view's limit).`
  };
}
