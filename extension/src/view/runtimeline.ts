/**
 * The Run tab's step drawn to scale: each span a bar on one row (compiled code, a compiled
 * backward, a graph break's eager code, other eager code), its label in it or on a lane
 * below, a time axis, and the legend of the kinds drawn. A span is the key of its row in
 * the tables below.
 */

import { microseconds } from '../model/format';
import { Placed, placeSpans } from '../model/run';
import { Run, RunTimeline } from '../model/types';
import { el, svg } from './dom';

const WIDTH = 760;
const BAR = { top: 4, height: 26 };
const LANE = 15;
const PLACEMENT = { char: 6.4, gap: 5, lanes: 4 };

export type Row = { kind: 'frame' | 'gap'; index: number };

function spanRow(span: RunTimeline['spans'][number]): Row | null {
  if (span.kind === 'compiled' && typeof span.frame === 'number') {
    return { kind: 'frame', index: span.frame };
  }
  if (span.kind === 'eager' && typeof span.gap === 'number') {
    return { kind: 'gap', index: span.gap };
  }
  return null;
}

/** What a span is beyond compiled or eager, as the report colours it: a compiled
 * backward, or a graph break's eager code (the stored frame's and gap's kinds). */
function shade(
  run: Run,
  span: RunTimeline['spans'][number]
): 'backward' | 'break' | null {
  if (span.kind === 'compiled' && typeof span.frame === 'number') {
    return run.frames[span.frame]?.backward ? 'backward' : null;
  }
  if (span.kind === 'eager' && typeof span.gap === 'number') {
    return run.gaps[span.gap]?.kind === 'graph_break' ? 'break' : null;
  }
  return null;
}

function spanClass(run: Run, span: RunTimeline['spans'][number]): string {
  const extra = shade(run, span);
  return ['tcx-span', extra && `tcx-span-${extra}`, `tcx-span-${span.kind}`]
    .filter(Boolean)
    .join(' ');
}

/** One span's bar with its times in a tooltip and its label, in it or on a lane below (its leader into `leaders`). */
function spanGroup(
  run: Run,
  p: Placed,
  leaders: SVGGElement,
  pick: (row: Row) => void
): SVGGElement {
  const { span } = p;
  const row = spanRow(span);
  const barBottom = BAR.top + BAR.height;
  const group = svg(
    'g',
    {
      class: spanClass(run, span),
      'data-span': p.index,
      ...(row ? { 'data-row': `${row.kind}-${row.index}`, tabindex: 0 } : {})
    },
    svg(
      'title',
      {},
      `${span.label}\n${microseconds(span.start_us)} to ${microseconds(span.end_us)} from the step's start (${microseconds(span.end_us - span.start_us)})`
    ),
    svg('rect', {
      x: p.x,
      y: BAR.top,
      width: p.width,
      height: BAR.height,
      class: 'tcx-span-bar'
    })
  );
  if (p.label?.lane === 0) {
    group.append(
      svg(
        'text',
        { x: p.label.x, y: BAR.top + 17, class: 'tcx-span-label' },
        span.label
      )
    );
  } else if (p.label) {
    const baseline = barBottom + p.label.lane * LANE;
    leaders.append(
      svg('line', {
        x1: p.x + p.width / 2,
        x2: p.x + p.width / 2,
        y1: barBottom,
        y2: baseline - 10,
        class: 'tcx-span-leader'
      })
    );
    group.append(
      svg(
        'text',
        { x: p.label.x, y: baseline, class: 'tcx-chart-value' },
        span.label
      )
    );
  }
  if (row) {
    group.addEventListener('click', () => pick(row));
    group.addEventListener('keydown', event => {
      if ((event as KeyboardEvent).key === 'Enter') {
        pick(row);
      }
    });
  }
  return group;
}

/** The time axis at `axisY`: its line, the stored ticks and its title. */
function timeAxis(chart: SVGSVGElement, t: RunTimeline, axisY: number): void {
  const extent = t.duration_us;
  chart.append(
    svg('line', {
      x1: 0,
      x2: WIDTH,
      y1: axisY,
      y2: axisY,
      class: 'tcx-axis-line'
    })
  );
  const place = (us: number) => (extent > 0 ? (us * WIDTH) / extent : 0);
  // the stored axis ends at the step's end (common/axis.py); one saved before it, only there
  const axis = t.axis ?? {
    title: "time from the step's start",
    ticks: [{ at_us: extent, label: microseconds(extent) }]
  };
  axis.ticks.forEach((tk, i) => {
    const at = place(tk.at_us);
    chart.append(
      svg('line', {
        x1: at,
        x2: at,
        y1: axisY,
        y2: axisY + 4,
        class: 'tcx-axis-line'
      }),
      svg(
        'text',
        {
          x: at,
          y: axisY + 15,
          class: 'tcx-tick',
          'text-anchor':
            i === 0 && at < 20 ? 'start' : at > WIDTH - 20 ? 'end' : 'middle'
        },
        tk.label
      )
    );
  });
  chart.append(
    svg(
      'text',
      {
        x: WIDTH / 2,
        y: axisY + 30,
        'text-anchor': 'middle',
        class: 'tcx-axis-title'
      },
      axis.title
    )
  );
}

/** The step to scale: spans as bars on one row, labels in them or on lanes below, a time axis. */
export function timeline(run: Run, pick: (row: Row) => void): SVGSVGElement {
  const t = run.timeline;
  const placed = placeSpans(t.spans, t.duration_us, WIDTH, PLACEMENT);
  const lanes = Math.max(0, ...placed.map(p => p.label?.lane ?? 0));
  const axisY = BAR.top + BAR.height + lanes * LANE + 8;
  const chart = svg('svg', {
    class: 'tcx-chart tcx-run-timeline',
    viewBox: `0 0 ${WIDTH} ${axisY + 34}`,
    width: WIDTH,
    role: 'img',
    'aria-label': `step ${t.step} drawn to scale: compiled regions and the eager gaps between them`
  });
  // leaders first, so that every label's halo is drawn over them
  const leaders = svg('g', { class: 'tcx-span-leaders' });
  chart.append(leaders);
  for (const p of placed) {
    chart.append(spanGroup(run, p, leaders, pick));
  }
  timeAxis(chart, t, axisY);
  return chart;
}

/** The kinds of span drawn, each with its swatch: only those the step has. */
export function legend(run: Run): HTMLElement {
  const drawn = new Set<string>(
    run.timeline.spans.map(span => shade(run, span) ?? span.kind)
  );
  const kinds: Array<[string, string]> = [
    ['compiled', 'compiled code'],
    ['backward', 'compiled backward'],
    ['break', "a graph break's eager code"],
    ['eager', 'other eager code']
  ];
  return el(
    'p',
    { class: 'tcx-muted tcx-legend' },
    ...kinds
      .filter(([kind]) => drawn.has(kind))
      .flatMap(([kind, what]) => [
        el('span', { class: `tcx-swatch tcx-span-${kind}` }),
        ` ${what}  `
      ]),
    '· hover a span for its times, click it for its row'
  );
}
