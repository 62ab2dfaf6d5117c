/**
 * The SVG of a laid-out graph as GraphCanvas draws it: open groups' frames and title bars,
 * edges, node boxes sized from their label length (not measured), and the overview's
 * miniature of the whole drawing.
 */

import { clip, detailChars, NODE_HEIGHT } from '../model/layout';
import { Drawing } from '../model/viewport';
import { svg } from './dom';

/** The open groups: their frames (drawn under the edges) and title bars (over them); clicking a title reports its group. */
export function containerLayers(
  drawn: Drawing,
  onContainer: (group: string) => void
): { frames: SVGGElement; heads: SVGGElement } {
  const { graph, placed } = drawn;
  const frames = svg('g', { class: 'tcx-containers' });
  const heads = svg('g', { class: 'tcx-container-heads' });
  graph.containers.forEach((c, i) => {
    const box = placed.boxes[i];
    const head = svg(
      'g',
      { class: 'tcx-container-head', 'data-group': c.group },
      svg(
        'title',
        {},
        `${c.label}${c.detail ? `\n${c.detail}` : ''}\nclick to close this group`
      ),
      svg('rect', { x: box.x, y: box.y, width: box.w, height: 22, rx: 6 }),
      svg(
        'text',
        { x: box.x + 8, y: box.y + 15, class: 'tcx-container-label' },
        `▾ ${clip(c.label, 48)}`,
        c.detail && detailChars(box.w, c.label) > 4
          ? svg(
              'tspan',
              { class: 'tcx-container-detail', dx: 8 },
              clip(c.detail, detailChars(box.w, c.label))
            )
          : null
      )
    );
    head.addEventListener('click', event => {
      event.stopPropagation();
      onContainer(c.group);
    });
    frames.append(
      svg('rect', {
        class: 'tcx-container',
        x: box.x,
        y: box.y,
        width: box.w,
        height: box.h,
        rx: 6
      })
    );
    heads.append(head);
  });
  return { frames, heads };
}

/** Each edge as a curve from the bottom of one box to the top of the next. */
export function edgeLayer(drawn: Drawing): SVGGElement {
  const { graph, widths } = drawn;
  const { x, y } = drawn.placed;
  const edges = svg('g', { class: 'tcx-edges' });
  for (const [a, b] of graph.edges) {
    const x1 = x[a] + widths[a] / 2;
    const y1 = y[a] + NODE_HEIGHT;
    const x2 = x[b] + widths[b] / 2;
    const y2 = y[b];
    const bend = Math.min(60, Math.abs(y2 - y1) / 2 + 10);
    edges.appendChild(
      svg('path', {
        d: `M${x1},${y1}C${x1},${y1 + bend} ${x2},${y2 - bend} ${x2},${y2}`
      })
    );
  }
  return edges;
}

/** Each drawn node's box (a closed group's rounder), filled by `colour`; clicking one reports its index. */
export function nodeBoxes(
  drawn: Drawing,
  colour: (index: number) => string | null | undefined,
  onNode: (index: number) => void
): SVGGElement[] {
  const { graph, widths } = drawn;
  const { x, y } = drawn.placed;
  return graph.nodes.map((v, i) => {
    const fill = colour(i);
    const rect = svg('rect', {
      width: widths[i],
      height: NODE_HEIGHT,
      rx: v.node < 0 ? 10 : 4
    });
    if (fill) {
      rect.setAttribute('style', `fill:${fill}`);
    }
    const g = svg(
      'g',
      {
        class: `tcx-node${v.node < 0 ? ' tcx-group' : ''}${fill ? ' tcx-coloured' : ''}`,
        transform: `translate(${x[i]},${y[i]})`,
        'data-index': i,
        'data-name': v.label
      },
      svg(
        'title',
        {},
        `${v.label}\n${v.sub}${v.node < 0 ? '\nclick to open this group' : ''}`
      ),
      rect,
      svg('text', { x: 8, y: 16, class: 'tcx-node-label' }, clip(v.label)),
      svg('text', { x: 8, y: 32, class: 'tcx-node-sub' }, clip(v.sub))
    );
    g.addEventListener('click', event => {
      event.stopPropagation();
      onNode(i);
    });
    return g;
  });
}

/** The whole drawing in miniature at `scale`: its title, then the containers and nodes. */
export function minimapContent(drawn: Drawing, scale: number): SVGElement[] {
  const { placed } = drawn;
  const s = scale;
  const boxes = drawn.widths
    .map(
      (wd, i) =>
        `M${(placed.x[i] * s).toFixed(1)},${(placed.y[i] * s).toFixed(1)}h${Math.max(1, wd * s).toFixed(1)}v${Math.max(1, NODE_HEIGHT * s).toFixed(1)}h${(-Math.max(1, wd * s)).toFixed(1)}z`
    )
    .join('');
  return [
    svg(
      'title',
      {},
      'The whole graph; the frame is what the view shows. Click or drag to move the view.'
    ),
    svg(
      'g',
      { class: 'tcx-minimap-content' },
      ...placed.boxes.map(b =>
        svg('rect', {
          class: 'tcx-minimap-container',
          x: b.x * s,
          y: b.y * s,
          width: b.w * s,
          height: b.h * s
        })
      ),
      svg('path', { class: 'tcx-minimap-nodes', d: boxes })
    )
  ];
}
