/**
 * How a graph is shown in its pane: which groups it opens with, the zoom, whether its text
 * is legible at that zoom, and how tall the pane is. A graph opens whole when its text is
 * then legible; else with its groups open down to the deepest level that still is; else
 * with its outermost groups at a legible zoom, from the start, for the reader to pan.
 */

import { COLLAPSE_OVER, GraphModel } from './graph';
import { Grouping } from './grouping';
import { boxWidth, compoundLayout, CompoundLayout, titleWidth } from './layout';
import { VGraph, visibleGraph } from './visiblegraph';

/** Below this zoom a node's text is under ~10 px on screen (names 12 px, ops 11 px at 1). */
export const LEGIBLE_ZOOM = 0.9;
export const MARGIN = 12;
const MIN_PANE_HEIGHT = 120;

export interface Pane {
  width: number;
  maxHeight: number;
}

export interface Fit {
  /** the zoom at which the whole drawing fits the pane (never over 1) */
  whole: number;
  legible: boolean;
  /** the zoom it opens at: `whole` where legible, else 1 */
  zoom: number;
  /** the drawing's height at that zoom, within the pane's limits */
  height: number;
}

/** The pane's height for a drawing at a zoom: all of it, within the pane's limits. */
export function paneHeight(
  drawingHeight: number,
  zoom: number,
  pane: Pane
): number {
  return Math.max(
    MIN_PANE_HEIGHT,
    Math.min(pane.maxHeight, drawingHeight * zoom + 2 * MARGIN)
  );
}

export function fitIn(
  size: { width: number; height: number },
  pane: Pane
): Fit {
  const whole = Math.min(
    1,
    (pane.width - 2 * MARGIN) / Math.max(size.width, 1),
    (pane.maxHeight - 2 * MARGIN) / Math.max(size.height, 1)
  );
  const legible = whole >= LEGIBLE_ZOOM;
  const zoom = legible ? whole : 1;
  return { whole, legible, zoom, height: paneHeight(size.height, zoom, pane) };
}

export interface Drawing {
  graph: VGraph;
  widths: number[];
  placed: CompoundLayout;
}

export function drawing(
  model: GraphModel,
  grouping: Grouping,
  expanded: (key: string) => boolean
): Drawing {
  const graph = visibleGraph(model, grouping, expanded);
  const widths = graph.nodes.map(v => boxWidth(v.label, v.sub));
  const placed = compoundLayout({
    widths,
    edges: graph.edges,
    homes: graph.nodes.map(v => v.home),
    parents: graph.containers.map(c => c.parent),
    titleWidths: graph.containers.map(c => titleWidth(c.label))
  });
  return { graph, widths, placed };
}

export interface Opening {
  /** the groups open */
  expanded: Set<string>;
  drawing: Drawing;
  fit: Fit;
}

/** How many groups the opening tries to open one by one (each try is a layout). */
const OPENING_TRIES = 40;

/** A group's parent group, from the chain of its first node. */
export function parentGroup(grouping: Grouping, key: string): string | null {
  const chain = grouping.chains[grouping.members.get(key)?.[0] ?? -1] ?? [];
  const at = chain.indexOf(key);
  return at > 0 ? chain[at - 1] : null;
}

/**
 * The whole graph if it is legible whole; else, from all groups closed, groups opened one
 * at a time, outermost first and those holding groups before those holding only nodes,
 * each kept open only if the drawing stays legible; if even all closed it is not, that.
 */
export function chooseOpening(
  model: GraphModel,
  grouping: Grouping,
  pane: Pane
): Opening {
  const attempt = (expanded: Set<string>): Opening => {
    const drawn = drawing(model, grouping, key => expanded.has(key));
    return { expanded, drawing: drawn, fit: fitIn(drawn.placed, pane) };
  };
  if (model.nodes.length <= COLLAPSE_OVER) {
    const whole = attempt(new Set(grouping.depth.keys()));
    if (whole.fit.legible) {
      return whole;
    }
  }
  let best = attempt(new Set());
  if (!best.fit.legible) {
    return best;
  }
  const holdsGroups = new Set(
    [...grouping.depth.keys()]
      .map(key => parentGroup(grouping, key))
      .filter((p): p is string => p !== null)
  );
  const first = (key: string) => grouping.members.get(key)?.[0] ?? 0;
  const order = [...grouping.depth.keys()].sort(
    (a, b) =>
      grouping.depth.get(a)! - grouping.depth.get(b)! ||
      Number(holdsGroups.has(b)) - Number(holdsGroups.has(a)) ||
      first(a) - first(b)
  );
  let tries = 0;
  for (const key of order) {
    const parent = parentGroup(grouping, key);
    if (parent !== null && !best.expanded.has(parent)) {
      continue; // inside a closed group: opening it would show nothing
    }
    if (++tries > OPENING_TRIES) {
      break;
    }
    const next = attempt(new Set([...best.expanded, key]));
    if (next.fit.legible) {
      best = next;
    }
  }
  return best;
}
