/**
 * A layered layout for dataflow graphs, fast enough for thousands of nodes (linear passes,
 * no crossing minimisation beyond barycentres): rank = longest path from the inputs, then
 * every node moves down to just above its first user (so constants and parameters sit
 * beside their use rather than in one wide top row), x follows the mean x of a node's inputs
 * and is pushed right to avoid overlap; inputs without a placed predecessor go to the right
 * of their row. FX graphs arrive topologically ordered; an edge
 * pointing backwards in that order (possible between collapsed groups) does not rank.
 *
 * `compoundLayout` draws groups as containers: each container's members are laid out on
 * their own, then the container is one box of the level above.
 */

export interface LayoutInput {
  widths: number[];
  /** per node; NODE_HEIGHT where left out */
  heights?: number[];
  edges: Array<[number, number]>;
}

export interface Layout {
  x: number[];
  y: number[];
  width: number;
  height: number;
}

export const NODE_HEIGHT = 40;
const RANK_GAP = 26;
const NODE_GAP = 16;

/** Text sizes of a node box (px at zoom 1) and the width of a monospace character at each. */
export const LABEL_PX = 12;
export const SUB_PX = 11;
const MONO_EM = 0.61;
const MAX_CHARS = 32;

export function clip(text: string, chars = MAX_CHARS): string {
  return text.length > chars
    ? text.slice(0, Math.max(0, chars - 1)) + '…'
    : text;
}

/** A container title's width: "▾ label" in the UI font's bold 12 px, sized not measured. */
export function titleWidth(label: string): number {
  return (Math.min(label.length, 48) + 2) * 7.4 + 16;
}

/** How many characters of a container's detail (monospace, SUB_PX) fit beside its title. */
export function detailChars(boxWidth: number, label: string): number {
  return Math.floor((boxWidth - titleWidth(label) - 8) / (SUB_PX * MONO_EM));
}

/** A box's width from its two lines of text: sized, not measured, so thousands cost nothing. */
export function boxWidth(label: string, sub: string): number {
  const chars = (text: string, px: number) =>
    Math.min(MAX_CHARS, text.length) * px * MONO_EM;
  return Math.max(80, chars(label, LABEL_PX), chars(sub, SUB_PX)) + 18;
}

export function layout({ widths, heights, edges }: LayoutInput): Layout {
  const n = widths.length;
  const tall = (i: number) => heights?.[i] ?? NODE_HEIGHT;
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
  const y = new Array<number>(n).fill(0);
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
  let top = 0;
  let height = 0;
  for (const r of [...rows.keys()].sort((a, b) => a - b)) {
    const row = rows.get(r)!;
    const wanted = row.map(i => {
      const ins = preds[i];
      return ins.length
        ? ins.reduce((s, p) => s + centre(p), 0) / ins.length - widths[i] / 2
        : Infinity;
    });
    const order = row
      .map((_, k) => k)
      .sort((a, b) => wanted[a] - wanted[b] || row[a] - row[b]);
    let edge = 0;
    let rowHeight = 0;
    for (const k of order) {
      const i = row[k];
      x[i] = Math.max(edge, isFinite(wanted[k]) ? wanted[k] : edge);
      y[i] = top;
      edge = x[i] + widths[i] + NODE_GAP;
      rowHeight = Math.max(rowHeight, tall(i));
    }
    width = Math.max(width, edge - NODE_GAP);
    height = top + rowHeight;
    top = height + RANK_GAP;
  }
  return { x, y, width, height };
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface CompoundInput {
  widths: number[];
  edges: Array<[number, number]>;
  /** per node: the container it is drawn in, or -1 */
  homes: number[];
  /** per container: the container it is drawn in, or -1; a parent comes before its children */
  parents: number[];
  /** per container: the width its title needs */
  titleWidths?: number[];
}

export interface CompoundLayout extends Layout {
  /** per container, where its box is */
  boxes: Rect[];
}

/** Room a container keeps around what it holds, and above it for its title. */
export const CONTAINER_PAD = 10;
export const CONTAINER_HEAD = 24;
const CONTAINER_MIN_WIDTH = 140;

/**
 * The items of a compound layout: nodes 0..n-1 and container c as n + c, each at the level
 * of its parent (level c + 1 is container c's inside, level 0 the top), in graph order (a
 * container at its first node).
 */
interface Levels {
  levelOf: (item: number) => number;
  itemsAt: number[][];
  /** each item's place among the items of its level */
  slot: number[];
}

function levelsOf(n: number, homes: number[], parents: number[]): Levels {
  const levels = parents.length + 1;
  const levelOf = (item: number) =>
    (item < n ? homes[item] : parents[item - n]) + 1;
  const first = new Array<number>(parents.length).fill(Infinity);
  for (let i = 0; i < n; i++) {
    for (let c = homes[i]; c >= 0; c = parents[c]) {
      first[c] = Math.min(first[c], i);
    }
  }
  const itemsAt: number[][] = Array.from({ length: levels }, () => []);
  for (let item = 0; item < n + parents.length; item++) {
    itemsAt[levelOf(item)].push(item);
  }
  const order = (item: number) => (item < n ? item : first[item - n]);
  itemsAt.forEach(items => items.sort((a, b) => order(a) - order(b)));
  const slot = new Array<number>(n + parents.length);
  itemsAt.forEach(items => items.forEach((item, k) => (slot[item] = k)));
  return { levelOf, itemsAt, slot };
}

/** An edge a -> b joins, at the innermost level holding both, the items that contain a and b (once each). */
function edgesAtLevels(
  edges: Array<[number, number]>,
  n: number,
  homes: number[],
  parents: number[],
  { levelOf, itemsAt, slot }: Levels
): Array<Array<[number, number]>> {
  const edgesAt: Array<Array<[number, number]>> = itemsAt.map(() => []);
  const chainOf = (i: number) => {
    const chain = [i];
    for (let c = homes[i]; c >= 0; c = parents[c]) {
      chain.push(n + c);
    }
    return chain.reverse(); // outermost first, the node last
  };
  const seen = new Set<string>();
  for (const [a, b] of edges) {
    const ca = chainOf(a);
    const cb = chainOf(b);
    let k = 0;
    while (k < ca.length && k < cb.length && ca[k] === cb[k]) {
      k++;
    }
    const from = ca[k];
    const to = cb[k];
    const id = `${from}>${to}`;
    if (from !== undefined && to !== undefined && !seen.has(id)) {
      seen.add(id);
      edgesAt[levelOf(from)].push([slot[from], slot[to]]);
    }
  }
  return edgesAt;
}

/**
 * Nested containers, laid out from the inside out: what each container holds (its own nodes
 * and the containers inside it) is laid out on its own, then the container is one box of
 * the level above. An edge counts at the innermost level holding both of its ends.
 */
export function compoundLayout({
  widths,
  edges,
  homes,
  parents,
  titleWidths
}: CompoundInput): CompoundLayout {
  const n = widths.length;
  const depth = parents.map(() => 0);
  parents.forEach((p, c) => (depth[c] = p < 0 ? 0 : depth[p] + 1));
  const levels = levelsOf(n, homes, parents);
  const { itemsAt } = levels;
  const edgesAt = edgesAtLevels(edges, n, homes, parents, levels);
  const size: Array<{ w: number; h: number }> = [];
  for (let i = 0; i < n; i++) {
    size[i] = { w: widths[i], h: NODE_HEIGHT };
  }
  const inside: Layout[] = [];
  const deepestFirst = parents
    .map((_, c) => c)
    .sort((a, b) => depth[b] - depth[a]);
  const place = (level: number) => {
    const items = itemsAt[level];
    return layout({
      widths: items.map(i => size[i].w),
      heights: items.map(i => size[i].h),
      edges: edgesAt[level]
    });
  };
  for (const c of deepestFirst) {
    inside[c] = place(c + 1);
    size[n + c] = {
      w: Math.max(
        inside[c].width + 2 * CONTAINER_PAD,
        CONTAINER_MIN_WIDTH,
        titleWidths?.[c] ?? 0
      ),
      h: inside[c].height + CONTAINER_HEAD + CONTAINER_PAD
    };
  }
  const top = place(0);
  const x = new Array<number>(n + parents.length).fill(0);
  const y = new Array<number>(n + parents.length).fill(0);
  itemsAt[0].forEach((item, k) => {
    x[item] = top.x[k];
    y[item] = top.y[k];
  });
  for (const c of [...deepestFirst].reverse()) {
    itemsAt[c + 1].forEach((item, k) => {
      x[item] = x[n + c] + CONTAINER_PAD + inside[c].x[k];
      y[item] = y[n + c] + CONTAINER_HEAD + inside[c].y[k];
    });
  }
  return {
    x: x.slice(0, n),
    y: y.slice(0, n),
    width: top.width,
    height: top.height,
    boxes: parents.map((_, c) => ({
      x: x[n + c],
      y: y[n + c],
      w: size[n + c].w,
      h: size[n + c].h
    }))
  };
}
