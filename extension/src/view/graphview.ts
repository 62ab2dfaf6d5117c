/**
 * One graph, interactive: grouping (collapsed over COLLAPSE_OVER nodes), expand/collapse,
 * search, and marking nodes for the tab that owns it (Graphs or Fusion).
 */

import { buildGraph, COLLAPSE_OVER, GraphModel, groupNodes, Grouping, search, VGraph, visibleGraph } from '../model/graph';
import { Graph } from '../model/types';
import { el, select } from './dom';
import { GraphCanvas } from './graphcanvas';

export interface GraphViewOptions {
  /** colour of a graph node's box, by node name */
  colourOf?: (name: string) => string | null;
  /** a graph node (by index in the document graph) was clicked */
  onNode?: (index: number) => void;
}

export class GraphView {
  readonly element: HTMLElement;
  readonly model: GraphModel;
  private grouping: Grouping;
  private depth = 2;
  private expanded = new Set<string>();
  private all: boolean;
  private canvas: GraphCanvas;
  private shown: VGraph = { nodes: [], edges: [] };
  private marks = new Map<string, number[]>();
  private hits: number[] = [];
  private hit = -1;
  private status: HTMLElement;

  constructor(graph: Graph, private options: GraphViewOptions = {}) {
    this.model = buildGraph(graph);
    this.grouping = groupNodes(this.model, this.depth);
    this.all = this.model.nodes.length <= COLLAPSE_OVER;
    this.canvas = new GraphCanvas({
      colour: i => {
        const v = this.shown.nodes[i];
        return v.node >= 0 ? this.options.colourOf?.(String(this.model.nodes[v.node].node.name)) ?? null : null;
      },
      onNode: i => this.clicked(i)
    });
    this.status = el('span', { class: 'tcx-muted tcx-graph-status' });
    const query = el('input', { class: 'tcx-search', attrs: { type: 'search', placeholder: 'search nodes', 'aria-label': 'search nodes' } });
    query.addEventListener('input', () => this.search(query.value));
    query.addEventListener('keydown', event => {
      if (event.key === 'Enter') {
        this.step(event.shiftKey ? -1 : 1);
      }
    });
    const tools = el('div', { class: 'tcx-toolbar' },
      this.model.hasModules ? select([['1', 'group by module, depth 1'], ['2', 'depth 2'], ['3', 'depth 3'], ['4', 'depth 4']], String(this.depth), v => this.regroup(Number(v)), 'group depth') : null,
      el('button', { attrs: { type: 'button' }, onclick: () => this.setAll(true) }, 'expand all'),
      el('button', { attrs: { type: 'button' }, onclick: () => this.setAll(false) }, 'collapse all'),
      query,
      el('button', { attrs: { type: 'button', 'aria-label': 'previous match' }, onclick: () => this.step(-1) }, '↑'),
      el('button', { attrs: { type: 'button', 'aria-label': 'next match' }, onclick: () => this.step(1) }, '↓'),
      this.status);
    const notice = this.all ? null : el('p', { class: 'tcx-note' }, `${this.model.nodes.length} nodes: opened collapsed into groups; click a group to expand it.`);
    this.element = el('div', { class: 'tcx-graphview' }, tools, notice, this.canvas.element);
    this.redraw();
  }

  private isExpanded = (key: string) => this.all || this.expanded.has(key);

  private redraw(): void {
    this.shown = visibleGraph(this.model, this.grouping, this.isExpanded);
    this.canvas.draw(this.shown);
    for (const [cls, nodes] of this.marks) {
      this.canvas.mark(this.slots(nodes), cls);
    }
    this.status.textContent = `${this.shown.nodes.length} boxes for ${this.model.nodes.length} nodes`;
  }

  private slots(nodes: number[]): number[] {
    const wanted = new Set(nodes);
    const groups = new Set(nodes.map(n => this.grouping.keys[n]));
    const out: number[] = [];
    this.shown.nodes.forEach((v, i) => {
      if (v.node >= 0 ? wanted.has(v.node) : groups.has(v.group)) {
        out.push(i);
      }
    });
    return out;
  }

  private clicked(i: number): void {
    const v = this.shown.nodes[i];
    if (v.node < 0) {
      this.expanded.add(v.group);
      this.redraw();
      const first = this.shown.nodes.findIndex(s => s.group === v.group);
      this.canvas.centre(first);
      return;
    }
    this.options.onNode?.(v.node);
  }

  private regroup(depth: number): void {
    this.depth = depth;
    this.grouping = groupNodes(this.model, depth);
    this.expanded.clear();
    this.redraw();
  }

  private setAll(on: boolean): void {
    this.all = on;
    this.expanded.clear();
    this.redraw();
  }

  /** Marks graph nodes (document indices) with `cls`, expanding their groups; centres the first. */
  show(nodes: number[], cls: string, centre = true): void {
    this.marks.set(cls, nodes);
    const closed = nodes.map(n => this.grouping.keys[n]).filter(k => !this.isExpanded(k));
    if (closed.length) {
      closed.forEach(k => this.expanded.add(k));
      this.redraw();
    } else {
      this.canvas.mark(this.slots(nodes), cls);
    }
    if (centre && nodes.length) {
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
    this.hit = (this.hit + direction + this.hits.length) % this.hits.length;
    const node = this.hits[this.hit];
    if (!this.isExpanded(this.grouping.keys[node])) {
      this.expanded.add(this.grouping.keys[node]);
      this.redraw();
    }
    this.marks.set('tcx-match', this.hits);
    this.canvas.mark(this.slots(this.hits), 'tcx-match');
    this.canvas.mark(this.slots([node]), 'tcx-current');
    this.canvas.centre(this.slots([node])[0] ?? -1);
    this.status.textContent = `${this.hit + 1} of ${this.hits.length} matches`;
  }
}
