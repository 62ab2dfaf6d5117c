/**
 * An SVG drawing of a laid-out graph: node boxes, open groups as boxes around what they
 * hold, pan (drag, wheel) and zoom (Ctrl+wheel, or the owner's buttons), node clicks,
 * highlight classes, and an overview of the whole drawing beside it showing where the view
 * is. Node boxes are sized from their label length, not measured, so drawing thousands of
 * nodes needs no layout reads from the browser. Nothing is drawn over the graph: the
 * zoom buttons belong to the owner's toolbar. Pan and zoom move the whole <svg> by a CSS
 * transform: scaling inside the SVG would lay out every label again at each zoom step
 * (~0.4 s for 3,000 nodes), a transform of the element only repaints. The SVG itself is
 * made in graphsvg.ts.
 */

import { NODE_HEIGHT, Rect } from '../model/layout';
import { Drawing, Fit, LEGIBLE_ZOOM, MARGIN } from '../model/viewport';
import { el, svg } from './dom';
import {
  containerLayers,
  edgeLayer,
  minimapContent,
  nodeBoxes
} from './graphsvg';

const MINIMAP_WIDTH = 90;

export interface CanvasOptions {
  colour?: (index: number) => string | null;
  onNode?: (index: number) => void;
  /** an open group's title was clicked */
  onContainer?: (group: string) => void;
  /** the zoom changed (for the owner's zoom readout) */
  onZoom?: (zoom: number) => void;
}

export class GraphCanvas {
  readonly element: HTMLElement;
  private stage: HTMLElement;
  private root: SVGSVGElement;
  private viewport: SVGGElement;
  private minimap: SVGSVGElement;
  private overviewFrame: SVGRectElement;
  private boxes: SVGGElement[] = [];
  private drawn: Drawing | null = null;
  private k = 1;
  private tx = MARGIN;
  private ty = MARGIN;
  private mapScale = 1;

  constructor(private options: CanvasOptions = {}) {
    this.viewport = svg('g', { class: 'tcx-viewport' });
    this.root = svg(
      'svg',
      {
        class: 'tcx-graph-svg',
        role: 'img',
        'aria-label': 'graph',
        width: 1,
        height: 1
      },
      this.viewport
    );
    this.stage = el('div', { class: 'tcx-canvas' }, this.root);
    this.overviewFrame = svg('rect', { class: 'tcx-minimap-view' });
    this.minimap = svg('svg', {
      class: 'tcx-minimap',
      role: 'img',
      'aria-label': 'overview of the whole graph; click to go there'
    });
    this.element = el(
      'div',
      { class: 'tcx-canvas-row' },
      this.stage,
      this.minimap
    );
    this.bindPanZoom();
    this.bindMinimap();
  }

  /** The drawing area's size (a default before it is in the page). */
  size(): { w: number; h: number } {
    return {
      w: this.stage.clientWidth || 800,
      h: this.stage.clientHeight || 560
    };
  }

  get zoom(): number {
    return this.k;
  }

  /** Sets the drawing area's height (px). */
  setHeight(px: number): void {
    this.stage.style.height = `${Math.round(px)}px`;
    this.minimap.style.height = `${Math.round(px)}px`;
  }

  /**
   * Draws; with `fit`, at its zoom: the whole drawing where legible, else its start (the
   * first node's row at the top). Without, the view stays where it was.
   */
  draw(drawn: Drawing, fit?: Fit): void {
    this.drawn = drawn;
    const { graph, widths, placed } = drawn;
    const { frames, heads } = containerLayers(drawn, group =>
      this.options.onContainer?.(group)
    );
    const nodes = svg('g', { class: 'tcx-nodes' });
    this.boxes = nodeBoxes(
      drawn,
      i => this.options.colour?.(i),
      i => this.options.onNode?.(i)
    );
    this.boxes.forEach(g => nodes.appendChild(g));
    this.viewport.replaceChildren(frames, edgeLayer(drawn), heads, nodes);
    this.root.setAttribute('width', String(Math.ceil(placed.width) + 2));
    this.root.setAttribute('height', String(Math.ceil(placed.height) + 2));
    this.drawMinimap();
    if (fit) {
      this.k = fit.zoom;
      const { w } = this.size();
      this.ty = MARGIN;
      this.tx =
        fit.legible || !graph.nodes.length
          ? MARGIN
          : w / 2 - (placed.x[0] + widths[0] / 2) * this.k;
    }
    this.apply();
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

  /** Brings a node into the middle of the view, at a legible zoom. */
  centre(index: number): void {
    if (!this.drawn || index < 0 || index >= this.boxes.length) {
      return;
    }
    const { placed, widths } = this.drawn;
    this.reveal({
      x: placed.x[index],
      y: placed.y[index],
      w: widths[index],
      h: NODE_HEIGHT
    });
  }

  /** Brings an area into view at a legible zoom: centred if it fits, else its top-left first. */
  reveal(area: Rect): void {
    const { w, h } = this.size();
    if (this.k < LEGIBLE_ZOOM) {
      this.k = 1;
    }
    const fitsW = area.w * this.k <= w - 2 * MARGIN;
    const fitsH = area.h * this.k <= h - 2 * MARGIN;
    this.tx = fitsW
      ? w / 2 - (area.x + area.w / 2) * this.k
      : MARGIN - area.x * this.k;
    this.ty = fitsH
      ? h / 2 - (area.y + area.h / 2) * this.k
      : MARGIN - area.y * this.k;
    this.apply();
  }

  /** Where a drawn container is, by its group. */
  containerArea(group: string): Rect | null {
    const at =
      this.drawn?.graph.containers.findIndex(c => c.group === group) ?? -1;
    return at >= 0 ? this.drawn!.placed.boxes[at] : null;
  }

  /** The whole drawing in view, however small its text gets. */
  fit(): void {
    if (!this.drawn) {
      return;
    }
    const { w, h } = this.size();
    const { width, height } = this.drawn.placed;
    this.k = Math.min(
      1,
      (w - 2 * MARGIN) / Math.max(width, 1),
      (h - 2 * MARGIN) / Math.max(height, 1)
    );
    this.tx = (w - width * this.k) / 2;
    this.ty = MARGIN;
    this.apply();
  }

  zoomBy(factor: number): void {
    const { w, h } = this.size();
    this.zoomAt(factor, w / 2, h / 2);
  }

  private zoomAt(factor: number, px: number, py: number): void {
    const k = Math.max(0.02, Math.min(4, this.k * factor));
    this.tx = px - ((px - this.tx) * k) / this.k;
    this.ty = py - ((py - this.ty) * k) / this.k;
    this.k = k;
    this.apply();
  }

  /** Keeps some of the drawing in view: it cannot be dragged off the pane. */
  private clamp(): void {
    if (!this.drawn) {
      return;
    }
    const { w, h } = this.size();
    const { width, height } = this.drawn.placed;
    const bound = (t: number, content: number, pane: number) => {
      const low = Math.min(MARGIN, pane - MARGIN - content);
      const high = Math.max(MARGIN, pane - MARGIN - content);
      return Math.max(low, Math.min(high, t));
    };
    this.tx = bound(this.tx, width * this.k, w);
    this.ty = bound(this.ty, height * this.k, h);
  }

  private apply(): void {
    this.clamp();
    this.root.style.transform = `translate(${this.tx}px,${this.ty}px) scale(${this.k})`;
    this.updateMinimap();
    this.options.onZoom?.(this.k);
  }

  private drawMinimap(): void {
    const { placed } = this.drawn!;
    this.mapScale = Math.min(MINIMAP_WIDTH / Math.max(placed.width, 1), 1);
    this.minimap.replaceChildren(
      ...minimapContent(this.drawn!, this.mapScale),
      this.overviewFrame
    );
  }

  /** The overview: shown only while part of the drawing is out of view; its frame is the view. */
  private updateMinimap(): void {
    if (!this.drawn) {
      return;
    }
    const { w, h } = this.size();
    const { width, height } = this.drawn.placed;
    const outside =
      this.tx < 0 ||
      this.ty < 0 ||
      this.tx + width * this.k > w ||
      this.ty + height * this.k > h;
    this.minimap.style.display = outside ? '' : 'none';
    this.minimap.setAttribute('aria-hidden', String(!outside));
    if (!outside) {
      return;
    }
    const s = this.mapScale;
    const mapH = this.minimap.clientHeight || h;
    // Scroll the overview itself when the drawing is taller than it, keeping the frame inside.
    const top = -this.ty / this.k;
    const shift = Math.max(0, Math.min(height * s - mapH, top * s - mapH / 3));
    this.minimap
      .querySelector('.tcx-minimap-content')
      ?.setAttribute('transform', `translate(0,${-shift})`);
    this.overviewFrame.setAttribute('x', String((-this.tx / this.k) * s));
    this.overviewFrame.setAttribute('y', String(top * s - shift));
    this.overviewFrame.setAttribute('width', String((w / this.k) * s));
    this.overviewFrame.setAttribute('height', String((h / this.k) * s));
    this.overviewFrame.dataset.shift = String(shift);
  }

  private bindMinimap(): void {
    const go = (event: PointerEvent) => {
      const box = this.minimap.getBoundingClientRect();
      const shift = Number(this.overviewFrame.dataset.shift ?? 0);
      const gx = (event.clientX - box.left) / this.mapScale;
      const gy = (event.clientY - box.top + shift) / this.mapScale;
      const { w, h } = this.size();
      this.tx = w / 2 - gx * this.k;
      this.ty = h / 2 - gy * this.k;
      this.apply();
    };
    let dragging = false;
    this.minimap.addEventListener('pointerdown', event => {
      dragging = true;
      this.minimap.setPointerCapture?.(event.pointerId);
      go(event);
    });
    this.minimap.addEventListener(
      'pointermove',
      event => dragging && go(event)
    );
    this.minimap.addEventListener('pointerup', () => (dragging = false));
    this.minimap.addEventListener('pointercancel', () => (dragging = false));
  }

  private bindPanZoom(): void {
    this.stage.addEventListener(
      'wheel',
      event => {
        const box = this.stage.getBoundingClientRect();
        if (event.ctrlKey || event.metaKey) {
          event.preventDefault();
          this.zoomAt(
            Math.exp(-event.deltaY * 0.002),
            event.clientX - box.left,
            event.clientY - box.top
          );
          return;
        }
        // A plain wheel pans the drawing while it can; at its edge the page scrolls on.
        const before = [this.tx, this.ty];
        this.tx -= event.shiftKey ? event.deltaY : event.deltaX;
        this.ty -= event.shiftKey ? 0 : event.deltaY;
        this.apply();
        if (this.tx !== before[0] || this.ty !== before[1]) {
          event.preventDefault();
        }
      },
      { passive: false }
    );
    let drag: { x: number; y: number; tx: number; ty: number } | null = null;
    this.stage.addEventListener('pointerdown', event => {
      if (
        (event.target as Element).closest?.('.tcx-node, .tcx-container-head')
      ) {
        return;
      }
      drag = { x: event.clientX, y: event.clientY, tx: this.tx, ty: this.ty };
      this.stage.setPointerCapture?.(event.pointerId);
    });
    this.stage.addEventListener('pointermove', event => {
      if (drag) {
        this.tx = drag.tx + event.clientX - drag.x;
        this.ty = drag.ty + event.clientY - drag.y;
        this.apply();
      }
    });
    const stop = () => (drag = null);
    this.stage.addEventListener('pointerup', stop);
    this.stage.addEventListener('pointercancel', stop);
  }
}
