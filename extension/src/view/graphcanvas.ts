/**
 * An SVG drawing of a laid-out graph with pan (drag), zoom (wheel, buttons), node clicks
 * and highlight classes. Node boxes are sized from their label length, not measured, so
 * drawing thousands of nodes needs no layout reads from the browser.
 */

import { layout, Layout, NODE_HEIGHT } from '../model/layout';
import { VGraph } from '../model/graph';
import { el, svg } from './dom';

const CHAR_W = 6.6;
const MAX_CHARS = 34;

function clip(text: string): string {
  return text.length > MAX_CHARS ? text.slice(0, MAX_CHARS - 1) + '…' : text;
}

export interface CanvasOptions {
  colour?: (index: number) => string | null;
  onNode?: (index: number) => void;
}

export class GraphCanvas {
  readonly element: HTMLElement;
  private root: SVGSVGElement;
  private viewport: SVGGElement;
  private boxes: SVGGElement[] = [];
  private placed: Layout = { x: [], y: [], width: 0, height: 0 };
  private widths: number[] = [];
  private k = 1;
  private tx = 0;
  private ty = 0;

  constructor(private options: CanvasOptions = {}) {
    this.viewport = svg('g', { class: 'tcx-viewport' });
    this.root = svg('svg', { class: 'tcx-graph-svg', role: 'img', 'aria-label': 'graph' }, this.viewport);
    const zoom = (factor: number) => () => this.zoomAt(factor, this.size().w / 2, this.size().h / 2);
    const tools = el('div', { class: 'tcx-canvas-tools' },
      el('button', { attrs: { type: 'button', 'aria-label': 'zoom in' }, onclick: zoom(1.25) }, '+'),
      el('button', { attrs: { type: 'button', 'aria-label': 'zoom out' }, onclick: zoom(0.8) }, '−'),
      el('button', { attrs: { type: 'button' }, onclick: () => this.fit() }, 'fit'));
    this.element = el('div', { class: 'tcx-canvas' }, this.root, tools);
    this.bindPanZoom();
  }

  private size(): { w: number; h: number } {
    return { w: this.element.clientWidth || 800, h: this.element.clientHeight || 560 };
  }

  draw(graph: VGraph): void {
    this.widths = graph.nodes.map(v => Math.max(70, Math.min(MAX_CHARS, Math.max(v.label.length, v.sub.length * 0.85)) * CHAR_W + 18));
    this.placed = layout({ widths: this.widths, edges: graph.edges });
    const { x, y } = this.placed;
    const edges = svg('g', { class: 'tcx-edges' });
    const nodes = svg('g', { class: 'tcx-nodes' });
    for (const [a, b] of graph.edges) {
      const x1 = x[a] + this.widths[a] / 2;
      const y1 = y[a] + NODE_HEIGHT;
      const x2 = x[b] + this.widths[b] / 2;
      const y2 = y[b];
      const bend = Math.min(60, Math.abs(y2 - y1) / 2 + 10);
      edges.appendChild(svg('path', { d: `M${x1},${y1}C${x1},${y1 + bend} ${x2},${y2 - bend} ${x2},${y2}` }));
    }
    this.boxes = graph.nodes.map((v, i) => {
      const fill = this.options.colour?.(i);
      const rect = svg('rect', { width: this.widths[i], height: NODE_HEIGHT, rx: v.node < 0 ? 10 : 4 });
      if (fill) {
        rect.setAttribute('style', `fill:${fill}`);
      }
      const g = svg('g', { class: `tcx-node${v.node < 0 ? ' tcx-group' : ''}${fill ? ' tcx-coloured' : ''}`, transform: `translate(${x[i]},${y[i]})`, 'data-index': i, 'data-name': v.label },
        svg('title', {}, `${v.label}\n${v.sub}`),
        rect,
        svg('text', { x: 8, y: 14, class: 'tcx-node-label' }, clip(v.label)),
        svg('text', { x: 8, y: 27, class: 'tcx-node-sub' }, clip(v.sub)));
      g.addEventListener('click', event => {
        event.stopPropagation();
        this.options.onNode?.(i);
      });
      nodes.appendChild(g);
      return g;
    });
    this.viewport.replaceChildren(edges, nodes);
    this.fit();
  }

  /** Puts `cls` on exactly the given nodes. */
  mark(indices: Iterable<number>, cls: string): void {
    for (const g of this.viewport.querySelectorAll(`.${cls}`)) {
      g.classList.remove(cls);
    }
    for (const i of indices) {
      this.boxes[i]?.classList.add(cls);
    }
  }

  centre(index: number): void {
    if (index < 0 || index >= this.boxes.length) {
      return;
    }
    const { w, h } = this.size();
    this.k = Math.max(this.k, 0.8);
    this.tx = w / 2 - (this.placed.x[index] + this.widths[index] / 2) * this.k;
    this.ty = h / 2 - (this.placed.y[index] + NODE_HEIGHT / 2) * this.k;
    this.apply();
  }

  fit(): void {
    const { w } = this.size();
    this.k = Math.max(0.3, Math.min(1, (w - 20) / Math.max(this.placed.width, 1))); // wider graphs pan
    this.tx = 10;
    this.ty = 10;
    this.apply();
  }

  private zoomAt(factor: number, px: number, py: number): void {
    const k = Math.max(0.05, Math.min(4, this.k * factor));
    this.tx = px - ((px - this.tx) * k) / this.k;
    this.ty = py - ((py - this.ty) * k) / this.k;
    this.k = k;
    this.apply();
  }

  private apply(): void {
    this.viewport.setAttribute('transform', `translate(${this.tx},${this.ty}) scale(${this.k})`);
  }

  private bindPanZoom(): void {
    this.root.addEventListener('wheel', event => {
      event.preventDefault();
      const box = this.root.getBoundingClientRect();
      this.zoomAt(Math.exp(-event.deltaY * 0.0015), event.clientX - box.left, event.clientY - box.top);
    }, { passive: false });
    let drag: { x: number; y: number; tx: number; ty: number } | null = null;
    this.root.addEventListener('pointerdown', event => {
      if ((event.target as Element).closest?.('.tcx-node')) {
        return;
      }
      drag = { x: event.clientX, y: event.clientY, tx: this.tx, ty: this.ty };
      this.root.setPointerCapture?.(event.pointerId);
    });
    this.root.addEventListener('pointermove', event => {
      if (drag) {
        this.tx = drag.tx + event.clientX - drag.x;
        this.ty = drag.ty + event.clientY - drag.y;
        this.apply();
      }
    });
    const stop = () => (drag = null);
    this.root.addEventListener('pointerup', stop);
    this.root.addEventListener('pointercancel', stop);
  }
}
