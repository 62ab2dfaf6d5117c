/**
 * One graph, interactive: opened legible (model/viewport.ts chooses which groups are open),
 * groups opened and closed by clicking, search, zoom from a toolbar above the drawing, and
 * marking nodes for the tab that owns it (Graphs or Fusion).
 */

import { boundedGraph } from '../model/bounds';
import { buildGraph, GraphModel, search } from '../model/graph';
import { groupNodes, Grouping } from '../model/grouping';
import { Graph } from '../model/types';
import {
  chooseOpening,
  Drawing,
  drawing,
  Fit,
  Pane,
  paneHeight
} from '../model/viewport';
import { VGraph } from '../model/visiblegraph';
import { el, note } from './dom';
import { GraphCanvas } from './graphcanvas';

export interface GraphViewOptions {
  /** colour of a graph node's box, by node name */
  colourOf?: (name: string) => string | null;
  /** a graph node (by index in the document graph) was clicked */
  onNode?: (index: number) => void;
  /** how a user file is named in group labels (default: its base name) */
  fileLabel?: (file: string) => string;
}

/** The tallest a graph's pane grows before it pans: most of the window, never a second page. */
function maxPaneHeight(): number {
  return Math.max(
    320,
    Math.min(680, Math.round((window.innerHeight || 800) * 0.75))
  );
}

export class GraphView {
  readonly element: HTMLElement;
  readonly model: GraphModel;
  private grouping: Grouping;
  private expanded = new Set<string>();
  private canvas: GraphCanvas;
  private shown: VGraph = { nodes: [], edges: [], containers: [] };
  private marks = new Map<string, number[]>();
  private hits: number[] = [];
  private hit = -1;
  private status: HTMLElement;
  private zoomText: HTMLElement;
  private openedAt = 0;
  private touched = false;

  constructor(
    graph: Graph,
    private options: GraphViewOptions = {}
  ) {
    const bounded = boundedGraph(graph);
    this.model = buildGraph(bounded.value);
    this.grouping = groupNodes(this.model, options.fileLabel);
    this.canvas = new GraphCanvas({
      colour: i => {
        const v = this.shown.nodes[i];
        return v.node >= 0
          ? (this.options.colourOf?.(
              String(this.model.nodes[v.node].node.name)
            ) ?? null)
          : null;
      },
      onNode: i => this.clicked(i),
      onContainer: group => this.close(group),
      onZoom: k => (this.zoomText.textContent = `${Math.round(k * 100)}%`)
    });
    this.status = el('span', { class: 'tcx-muted tcx-graph-status' });
    this.zoomText = el(
      'span',
      { class: 'tcx-zoom-level', attrs: { 'aria-live': 'polite' } },
      '100%'
    );
    this.element = el(
      'div',
      { class: 'tcx-graphview' },
      this.toolbar(),
      bounded.note ? note(bounded.note) : null,
      this.help(),
      this.canvas.element
    );
    this.open();
    if (typeof ResizeObserver !== 'undefined') {
      // The pane's real width is known once it is in the page: open again for it, unless the reader has moved.
      new ResizeObserver(() => {
        const { w } = this.canvas.size();
        if (!this.touched && Math.abs(w - this.openedAt) > 40) {
          this.open();
        }
      }).observe(this.canvas.element);
    }
  }

  /** The toolbar: open or close every group, search with the previous and next match, zoom. */
  private toolbar(): HTMLElement {
    const query = el('input', {
      class: 'tcx-search',
      attrs: {
        type: 'search',
        placeholder: 'search nodes',
        'aria-label': 'search nodes'
      }
    });
    query.addEventListener('input', () => this.search(query.value));
    query.addEventListener('keydown', event => {
      if (event.key === 'Enter') {
        this.step(event.shiftKey ? -1 : 1);
      }
    });
    const button = (text: string, label: string, action: () => void) =>
      el(
        'button',
        {
          attrs: { type: 'button', 'aria-label': label, title: label },
          onclick: () => {
            this.touched = true;
            action();
          }
        },
        text
      );
    const grouped = this.grouping.depth.size > 0;
    return el(
      'div',
      { class: 'tcx-toolbar tcx-graph-tools' },
      grouped
        ? el(
            'span',
            { class: 'tcx-tool-group' },
            button('open all', 'open every group', () => this.setAll(true)),
            button('close all', 'close every group', () => this.setAll(false))
          )
        : null,
      el(
        'span',
        { class: 'tcx-tool-group' },
        query,
        button('↑', 'previous match', () => this.step(-1)),
        button('↓', 'next match', () => this.step(1))
      ),
      el(
        'span',
        { class: 'tcx-tool-group tcx-zoom-tools' },
        button('−', 'zoom out', () => this.canvas.zoomBy(0.8)),
        this.zoomText,
        button('+', 'zoom in', () => this.canvas.zoomBy(1.25)),
        button('fit', 'fit the whole graph in view', () => this.canvas.fit()),
        button('1:1', 'zoom to 100%', () =>
          this.canvas.zoomBy(1 / this.canvas.zoom)
        )
      )
    );
  }

  /** Under the toolbar: the status, what the nodes are grouped by, how to move about. */
  private help(): HTMLElement {
    const grouped = this.grouping.depth.size > 0;
    const by = {
      module: 'module',
      source: 'user code (function, then line)',
      runs: 'runs of nodes'
    }[this.model.groupBy];
    return el(
      'div',
      { class: 'tcx-muted tcx-graph-help' },
      this.status,
      el('br'),
      grouped
        ? `Grouped by ${by}: click a group to open it, its title to close it. `
        : '',
      'Drag or wheel to pan, Ctrl+wheel to zoom.'
    );
  }

  private pane(): Pane {
    return { width: this.canvas.size().w, maxHeight: maxPaneHeight() };
  }

  /** Opens as model/viewport.ts chooses for the pane's size. */
  private open(): void {
    const pane = this.pane();
    this.openedAt = pane.width;
    const opening = chooseOpening(this.model, this.grouping, pane);
    this.expanded = opening.expanded;
    this.canvas.setHeight(opening.fit.height);
    this.render(opening.drawing, opening.fit);
  }

  private redraw(): void {
    const drawn = drawing(this.model, this.grouping, key =>
      this.expanded.has(key)
    );
    this.canvas.setHeight(
      paneHeight(drawn.placed.height, this.canvas.zoom, this.pane())
    );
    this.render(drawn);
  }

  private render(drawn: Drawing, fit?: Fit): void {
    this.shown = drawn.graph;
    this.canvas.draw(drawn, fit);
    for (const [cls, nodes] of this.marks) {
      this.canvas.mark(this.slots(nodes), cls);
    }
    const boxes = this.shown.nodes.length;
    const whole =
      fit && !fit.legible
        ? ' Too big to read whole: this is its start at 100%; the overview on the right shows where; "fit" shows it all.'
        : '';
    this.status.textContent = `${boxes} ${boxes === 1 ? 'box' : 'boxes'} for ${this.model.nodes.length} nodes.${whole}`;
  }

  private slots(nodes: number[]): number[] {
    const wanted = new Set(nodes);
    const groups = new Set(nodes.flatMap(n => this.grouping.chains[n]));
    const out: number[] = [];
    this.shown.nodes.forEach((v, i) => {
      if (v.node >= 0 ? wanted.has(v.node) : groups.has(v.group)) {
        out.push(i);
      }
    });
    return out;
  }

  private clicked(i: number): void {
    this.touched = true;
    const v = this.shown.nodes[i];
    if (v.node < 0) {
      this.expanded.add(v.group);
      this.redraw();
      const area = this.canvas.containerArea(v.group);
      if (area) {
        this.canvas.reveal(area);
      } else {
        this.canvas.centre(
          this.shown.nodes.findIndex(s =>
            this.grouping.chains[s.node]?.includes(v.group)
          )
        );
      }
      return;
    }
    this.options.onNode?.(v.node);
  }

  /** Closes an open group and every group inside it. */
  private close(group: string): void {
    this.touched = true;
    const inside = new Set(this.grouping.members.get(group) ?? []);
    for (const key of [...this.expanded]) {
      const first = this.grouping.members.get(key)?.[0];
      if (
        key === group ||
        (first !== undefined &&
          inside.has(first) &&
          this.grouping.chains[first].indexOf(key) >
            this.grouping.chains[first].indexOf(group))
      ) {
        this.expanded.delete(key);
      }
    }
    this.redraw();
    this.canvas.centre(
      this.shown.nodes.findIndex(v => v.node < 0 && v.group === group)
    );
  }

  private setAll(on: boolean): void {
    this.expanded = on ? new Set(this.grouping.depth.keys()) : new Set();
    this.redraw();
  }

  /** Opens the groups holding these nodes. */
  private openFor(nodes: number[]): boolean {
    const closed = nodes
      .flatMap(n => this.grouping.chains[n])
      .filter(k => !this.expanded.has(k));
    closed.forEach(k => this.expanded.add(k));
    return closed.length > 0;
  }

  /** Marks graph nodes (document indices) with `cls`, opening their groups; centres the first. */
  show(nodes: number[], cls: string, centre = true): void {
    this.marks.set(cls, nodes);
    if (this.openFor(nodes)) {
      this.touched = true;
      this.redraw();
    } else {
      this.canvas.mark(this.slots(nodes), cls);
    }
    if (centre && nodes.length) {
      this.touched = true;
      this.canvas.centre(this.slots([nodes[0]])[0] ?? -1);
    }
  }

  private search(query: string): void {
    this.hits = search(this.model, query);
    this.hit = -1;
    this.marks.set('tcx-match', []);
    this.canvas.mark([], 'tcx-match');
    if (!query.trim()) {
      this.status.textContent = '';
      return;
    }
    this.status.textContent = `${this.hits.length} matches`;
    if (this.hits.length) {
      this.step(1);
    }
  }

  private step(direction: number): void {
    if (!this.hits.length) {
      return;
    }
    this.touched = true;
    this.hit = (this.hit + direction + this.hits.length) % this.hits.length;
    const node = this.hits[this.hit];
    if (this.openFor([node])) {
      this.redraw();
    }
    this.marks.set('tcx-match', this.hits);
    this.canvas.mark(this.slots(this.hits), 'tcx-match');
    this.canvas.mark(this.slots([node]), 'tcx-current');
    this.canvas.centre(this.slots([node])[0] ?? -1);
    this.status.textContent = `${this.hit + 1} of ${this.hits.length} matches`;
  }
}
