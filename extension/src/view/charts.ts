/**
 * Small inline SVG charts (plotly.js would add megabytes to every page for a few bars):
 * bars drawn to scale on a labelled axis from 0, and the compile-phase icicle.
 */

import { Axis, AxisBar } from '../model/axis';
import { duration } from '../model/format';
import { PhaseBox, RuntimeChart } from '../model/timing';
import { append, svg } from './dom';

const WIDTH = 640;

export interface ChartOptions {
  label: string;
  /** width of the whole chart and of its label column, in px */
  width?: number;
  labelWidth?: number;
  /** a dashed reference line at this value, with its name */
  reference?: { value: number; label: string };
}

const RIGHT = 190;
const ROW = 34;
const CHAR = 6.2; // px per character of 11px text, near enough to keep labels apart

/** Where an axis chart draws: `x` places a fraction of the axis, `bottom` is the last row's end. */
interface Frame {
  x: (f: number) => number;
  labelWidth: number;
  plot: number;
  bottom: number;
}

/** The axis below the rows (grid, ticks, line, title) and the dashed reference line. */
function axisLines(
  chart: SVGSVGElement,
  axis: Axis,
  { x, labelWidth, plot, bottom }: Frame,
  reference: ChartOptions['reference']
): void {
  for (const tick of axis.ticks) {
    const at = x(tick.value / axis.max);
    chart.append(
      svg('line', {
        x1: at,
        x2: at,
        y1: 2,
        y2: bottom + 4,
        class: tick.value === 0 ? 'tcx-axis-line' : 'tcx-grid'
      }),
      svg(
        'text',
        { x: at, y: bottom + 17, 'text-anchor': 'middle', class: 'tcx-tick' },
        tick.label
      )
    );
  }
  chart.append(
    svg('line', {
      x1: labelWidth,
      x2: labelWidth + plot,
      y1: bottom + 4,
      y2: bottom + 4,
      class: 'tcx-axis-line'
    }),
    svg(
      'text',
      {
        x: labelWidth + plot / 2,
        y: bottom + 33,
        'text-anchor': 'middle',
        class: 'tcx-axis-title'
      },
      axis.title
    )
  );
  if (reference && reference.value <= axis.max) {
    const at = x(reference.value / axis.max);
    chart.append(
      svg('line', {
        x1: at,
        x2: at,
        y1: 2,
        y2: bottom + 4,
        class: 'tcx-reference'
      }),
      svg(
        'text',
        { x: at + 3, y: bottom - 2, class: 'tcx-reference-label' },
        reference.label
      )
    );
  }
}

/** A row's name, cut to the label column, and its sub-line under it. */
function rowNames(r: AxisBar, y: number, labelWidth: number): SVGElement[] {
  const name =
    r.label.length * CHAR > labelWidth - 8
      ? `${r.label.slice(0, Math.floor((labelWidth - 8) / CHAR) - 1)}…`
      : r.label;
  return [
    svg(
      'text',
      { x: 0, y: r.sub ? y + 9 : y + 15, class: 'tcx-chart-label' },
      name
    ),
    ...(r.sub
      ? [svg('text', { x: 0, y: y + 22, class: 'tcx-chart-sub' }, r.sub)]
      : [])
  ];
}

/** A band's whiskers: its line and ends, the right end left off where it runs past the axis. */
function whiskers(
  group: SVGGElement,
  band: [number, number],
  x: (f: number) => number,
  mid: number
): void {
  const [a, b] = [x(band[0]), x(band[1])];
  append(
    group,
    svg('line', { x1: a, x2: b, y1: mid, y2: mid, class: 'tcx-whisker' }),
    svg('line', {
      x1: a,
      x2: a,
      y1: mid - 6,
      y2: mid + 6,
      class: 'tcx-whisker'
    }),
    band[1] <= 1 &&
      svg('line', {
        x1: b,
        x2: b,
        y1: mid - 6,
        y2: mid + 6,
        class: 'tcx-whisker'
      })
  );
}

/** Row `i`: its names, range, bar, whiskers, value, and an off-scale mark past the axis end. */
function barRow(r: AxisBar, i: number, frame: Frame): SVGGElement {
  const { x, labelWidth, plot } = frame;
  const y = 6 + i * ROW;
  const mid = y + 11;
  const group = svg(
    'g',
    { class: `tcx-chart-row${r.highlight ? ' tcx-highlight' : ''}` },
    svg('title', {}, r.title)
  );
  group.append(...rowNames(r, y, labelWidth));
  const end = Math.max(
    r.length === null ? labelWidth : x(r.length),
    r.band ? x(r.band[1]) : labelWidth
  );
  // an off-scale mark goes past the axis end, and past the value's text when that reaches it
  const edge = labelWidth + plot;
  const mark = Math.max(edge, end + 9 + r.value.length * CHAR);
  if (r.range) {
    group.append(
      svg('line', {
        x1: x(r.range[0]),
        x2: r.offScale && r.range[1] > 1 ? mark : x(r.range[1]),
        y1: mid,
        y2: mid,
        class: 'tcx-range'
      })
    );
  }
  if (r.length !== null) {
    group.append(
      svg('rect', {
        x: labelWidth,
        y,
        width: Math.max(x(r.length) - labelWidth, 1),
        height: 22,
        class: `tcx-bar ${r.className}`
      })
    );
  }
  if (r.band) {
    whiskers(group, r.band, x, mid);
  }
  group.append(
    svg(
      'text',
      {
        x: end + 5,
        y: y + 15,
        class: `tcx-chart-value${r.length === null ? ' tcx-chart-failed' : ''}`
      },
      r.value
    )
  );
  if (r.offScale) {
    group.append(
      svg('path', {
        d: `M ${mark} ${mid - 5} L ${mark + 7} ${mid} L ${mark} ${mid + 5} Z`,
        class: 'tcx-offscale'
      }),
      svg(
        'text',
        { x: mark + 12, y: y + 15, class: 'tcx-offscale-label' },
        r.offScale
      )
    );
  }
  return group;
}

/** Horizontal bars to scale on `axis`, with its ticks, grid and title below. */
export function axisChart(
  axis: Axis,
  rows: AxisBar[],
  { label, width = WIDTH, labelWidth = 90, reference }: ChartOptions
): SVGSVGElement {
  const plot = width - labelWidth - RIGHT;
  const x = (f: number) => labelWidth + Math.max(0, Math.min(f, 1)) * plot;
  const bottom = 6 + rows.length * ROW;
  const height = bottom + 40;
  const frame = { x, labelWidth, plot, bottom };
  const chart = svg('svg', {
    class: 'tcx-chart tcx-axis-chart',
    viewBox: `0 0 ${width} ${height}`,
    width,
    role: 'img',
    'aria-label': label
  });
  axisLines(chart, axis, frame, reference);
  rows.forEach((r, i) => chart.appendChild(barRow(r, i, frame)));
  return chart;
}

/** Eager and compiled per call: medians as bars, IQR whiskers, min–max cut at the axis end. */
export function runtimeBarChart(chart: RuntimeChart): SVGSVGElement {
  return axisChart(
    chart.axis,
    chart.bars.map(b => ({
      label: b.label,
      sub: `${b.samples} samples`,
      length: b.length,
      band: b.iqrAt,
      range: b.max === null ? null : [b.minAt, b.max / chart.axis.max],
      offScale: b.maxOffScale ? `max ${duration(b.max)}` : null,
      value: chart.axis.format(b.median),
      className: `tcx-bar-${b.label}`,
      title: b.note
    })),
    { label: 'time per call, eager and compiled: medians with their IQR' }
  );
}

/** Compile-time phases as an icicle: depth down, time across. */
export function icicle(boxes: PhaseBox[]): SVGSVGElement {
  const row = 20;
  const depth = Math.max(0, ...boxes.map(b => b.depth)) + 1;
  const chart = svg('svg', {
    class: 'tcx-chart',
    viewBox: `0 0 ${WIDTH} ${depth * row}`,
    width: WIDTH,
    role: 'img',
    'aria-label': 'compile-time phases'
  });
  for (const b of boxes) {
    const x = b.start * WIDTH;
    const w = Math.max(b.width * WIDTH, 1);
    const label = w > 50 ? `${b.name} ${duration(b.durationMs)}` : '';
    chart.append(
      svg(
        'g',
        { class: 'tcx-phase' },
        svg('title', {}, `${b.name}: ${duration(b.durationMs)}`),
        svg('rect', { x, y: b.depth * row, width: w, height: row - 2 }),
        label
          ? svg(
              'text',
              { x: x + 3, y: b.depth * row + 13 },
              label.length * 6 > w ? label.slice(0, Math.floor(w / 6)) : label
            )
          : null
      )
    );
  }
  return chart;
}
