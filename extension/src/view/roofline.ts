/**
 * The Profile tab's roofline: each kernel placed by its FLOPs per byte against its achieved
 * GFLOP/s on log axes, under the machine's memory and compute roofs; a kernel picked by
 * clicking its point.
 */

import { microseconds, num, rate, tick } from '../model/format';
import { logAxis, Roofline, roofline } from '../model/profile';
import { Profile } from '../model/types';
import { el, note, svg } from './dom';

const CHART = {
  width: 560,
  height: 300,
  left: 58,
  bottom: 38,
  top: 10,
  right: 16
};

type Axis = ReturnType<typeof logAxis>;

/** The grid lines and tick values of both axes, and the axes' titles. */
function grid(chart: SVGSVGElement, x: Axis, y: Axis): void {
  const c = CHART;
  for (const t of x.ticks) {
    chart.append(
      svg('line', {
        x1: t.at,
        x2: t.at,
        y1: c.top,
        y2: c.height - c.bottom,
        class: 'tcx-grid'
      }),
      svg(
        'text',
        {
          x: t.at,
          y: c.height - c.bottom + 14,
          class: 'tcx-chart-value',
          'text-anchor': 'middle'
        },
        tick(t.value)
      )
    );
  }
  for (const t of y.ticks) {
    chart.append(
      svg('line', {
        x1: c.left,
        x2: c.width - c.right,
        y1: t.at,
        y2: t.at,
        class: 'tcx-grid'
      }),
      svg(
        'text',
        {
          x: c.left - 4,
          y: t.at + 4,
          class: 'tcx-chart-value',
          'text-anchor': 'end'
        },
        tick(t.value)
      )
    );
  }
  const mid = (c.top + c.height - c.bottom) / 2;
  chart.append(
    svg(
      'text',
      {
        x: (c.left + c.width) / 2,
        y: c.height - 6,
        class: 'tcx-chart-label',
        'text-anchor': 'middle'
      },
      'arithmetic intensity (FLOPs per byte moved)'
    ),
    svg(
      'text',
      {
        x: 12,
        y: mid,
        class: 'tcx-chart-label',
        'text-anchor': 'middle',
        transform: `rotate(-90 12 ${mid})`
      },
      'achieved GFLOP/s'
    )
  );
}

/** The memory roof up to the ridge, and the compute roof from it where the peak is known. */
function roofs(chart: SVGSVGElement, r: Roofline, x: Axis, y: Axis): void {
  const lo = x.ticks[0].value;
  const hi = x.ticks[x.ticks.length - 1].value;
  const roofEnd = r.ridge ?? hi;
  chart.append(
    svg(
      'line',
      {
        x1: x.place(lo),
        y1: y.place(lo * r.bandwidth),
        x2: x.place(roofEnd),
        y2: y.place(roofEnd * r.bandwidth),
        class: 'tcx-roof'
      },
      svg('title', {}, `memory roof: ${rate(r.bandwidth, 'GB/s')}`)
    )
  );
  if (r.peak && r.ridge) {
    chart.append(
      svg(
        'line',
        {
          x1: x.place(r.ridge),
          y1: y.place(r.peak),
          x2: x.place(hi),
          y2: y.place(r.peak),
          class: 'tcx-roof'
        },
        svg('title', {}, `compute roof: ${rate(r.peak, 'GFLOP/s')}`)
      )
    );
  }
}

/** Each kernel's point, coloured by what bounds it; clicking it (or Enter) picks the kernel. */
function points(
  chart: SVGSVGElement,
  r: Roofline,
  x: Axis,
  y: Axis,
  pick: (index: number) => void
): void {
  for (const p of r.points) {
    const dot = svg(
      'circle',
      {
        cx: x.place(p.intensity),
        cy: y.place(p.gflops),
        r: 6,
        class: `tcx-point tcx-bound-${p.kernel.bound ?? 'unknown'}`,
        tabindex: 0,
        'data-kernel': p.kernel.name
      },
      svg(
        'title',
        {},
        `${p.kernel.label ?? p.kernel.name}: ${num(p.intensity)} FLOPs/byte, ${rate(p.gflops, 'GFLOP/s')}, ${rate(p.kernel.achieved_gbps, 'GB/s')}, ${microseconds(p.kernel.time_us)} (${p.kernel.bound ?? '?'}-bound)`
      )
    );
    dot.addEventListener('click', () => pick(p.index));
    dot.addEventListener('keydown', event => {
      if ((event as KeyboardEvent).key === 'Enter') {
        pick(p.index);
      }
    });
    chart.append(dot);
  }
}

export function rooflineChart(
  profile: Profile,
  pick: (index: number) => void
): Element {
  const r = roofline(profile);
  if (!r.points.length) {
    return note(
      'No kernel has both FLOPs and bytes: nothing to place on the roofline.'
    );
  }
  const c = CHART;
  const xs = r.points.map(p => p.intensity).concat(r.ridge ? [r.ridge] : []);
  const ys = r.points.map(p => p.gflops).concat(r.peak ? [r.peak] : []);
  const x = logAxis(
    xs.flatMap(v => [v / 4, v * 4]),
    c.left,
    c.width - c.right
  );
  const y = logAxis(
    ys.flatMap(v => [v / 4, v * 2]),
    c.height - c.bottom,
    c.top
  );
  const chart = svg('svg', {
    class: 'tcx-chart tcx-roofline',
    viewBox: `0 0 ${c.width} ${c.height}`,
    width: c.width,
    role: 'img',
    'aria-label': 'roofline: achieved GFLOP/s against FLOPs per byte'
  });
  grid(chart, x, y);
  roofs(chart, r, x, y);
  points(chart, r, x, y, pick);
  const legend = el(
    'p',
    { class: 'tcx-muted tcx-legend' },
    ...(['memory', 'compute', 'latency'] as const).flatMap(b => [
      el('span', { class: `tcx-dot tcx-bound-${b}` }),
      ` ${b}-bound  `
    ]),
    r.missing
      ? `· ${r.missing} kernel(s) without FLOPs or bytes are not placed`
      : ''
  );
  return el('div', null, chart, legend);
}
