/**
 * Two small inline SVG charts (the Timing tab needs only these; plotly.js would add
 * megabytes to every page for two bars and one icicle).
 */

import { ms } from '../model/format';
import { Bar, PhaseBox } from '../model/timing';
import { svg } from './dom';

const WIDTH = 640;

/** Horizontal bars: median, with a min–max whisker. */
export function barChart(bars: Bar[]): SVGSVGElement {
  const row = 34;
  const left = 90;
  const span = Math.max(...bars.map(b => b.high), 1e-9);
  const scale = (v: number) => left + (v / span) * (WIDTH - left - 110);
  const chart = svg('svg', { class: 'tcx-chart', viewBox: `0 0 ${WIDTH} ${bars.length * row + 10}`, width: WIDTH, role: 'img', 'aria-label': 'runtime per call' });
  bars.forEach((b, i) => {
    const y = 6 + i * row;
    chart.append(
      svg('text', { x: 0, y: y + 17, class: 'tcx-chart-label' }, b.label),
      svg('rect', { x: left, y, width: Math.max(1, scale(b.median) - left), height: 22, class: `tcx-bar tcx-bar-${b.label}` }, svg('title', {}, b.note)),
      svg('line', { x1: scale(b.low), x2: scale(b.high), y1: y + 11, y2: y + 11, class: 'tcx-whisker' }),
      svg('text', { x: scale(b.high) + 6, y: y + 16, class: 'tcx-chart-value' }, ms(b.median))
    );
  });
  return chart;
}

/** Compile-time phases as an icicle: depth down, time across. */
export function icicle(boxes: PhaseBox[]): SVGSVGElement {
  const row = 20;
  const depth = Math.max(0, ...boxes.map(b => b.depth)) + 1;
  const chart = svg('svg', { class: 'tcx-chart', viewBox: `0 0 ${WIDTH} ${depth * row}`, width: WIDTH, role: 'img', 'aria-label': 'compile-time phases' });
  for (const b of boxes) {
    const x = b.start * WIDTH;
    const w = Math.max(b.width * WIDTH, 1);
    const label = w > 50 ? `${b.name} ${ms(b.durationMs)}` : '';
    chart.append(svg('g', { class: 'tcx-phase' },
      svg('title', {}, `${b.name}: ${ms(b.durationMs)}`),
      svg('rect', { x, y: b.depth * row, width: w, height: row - 2 }),
      label ? svg('text', { x: x + 3, y: b.depth * row + 13 }, label.length * 6 > w ? label.slice(0, Math.floor(w / 6)) : label) : null));
  }
  return chart;
}
