/**
 * The Run tab: one profiled step drawn as a timeline (compiled regions and the eager gaps
 * between them), the compiled frames by time and the eager gaps by cause. Every figure and
 * text is the document's `profile.run`; clicking a span selects its row.
 */

import {
  count,
  microseconds,
  num,
  percent,
  sourceLabels,
  where,
  whereTitle
} from '../model/format';
import {
  breakTarget,
  compileTarget,
  lineTarget,
  placeSpans,
  RUN_BEFORE_NOTE,
  runOf
} from '../model/run';
import { Run, RunFrame, RunGap, RunTimeline, Target } from '../model/types';
import { Context, TabView } from './context';
import { append, Child, el, link, note, svg, table, wrappable } from './dom';

const WIDTH = 760;
const BAR = { top: 4, height: 26 };
const LANE = 15;
const PLACEMENT = { char: 6.4, gap: 5, lanes: 4 };

type Row = { kind: 'frame' | 'gap'; index: number };

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

/** The step to scale: spans as bars on one row, labels in them or on lanes below, a time axis. */
function timeline(run: Run, pick: (row: Row) => void): SVGSVGElement {
  const t = run.timeline;
  const extent = t.duration_us;
  const placed = placeSpans(t.spans, extent, WIDTH, PLACEMENT);
  const lanes = Math.max(0, ...placed.map(p => p.label?.lane ?? 0));
  const barBottom = BAR.top + BAR.height;
  const axisY = barBottom + lanes * LANE + 8;
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
    const { span } = p;
    const row = spanRow(span);
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
    chart.append(group);
  }
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
  return chart;
}

function facts(run: Run): HTMLTableElement {
  const rows: Array<[string, string]> = [
    ['steps', `${count(run.steps.count)}: ${run.steps.basis}`],
    [
      'steps that compiled',
      run.steps.compiled.length
        ? `${run.steps.compiled.join(', ')} (left out of the figures per step)`
        : 'none'
    ],
    [
      'steady steps',
      `${count(run.steps.steady)} (the figures per step are their mean)`
    ],
    ['per step', run.step_time?.line ?? microseconds(run.per_step_us)],
    ['under the profiler', microseconds(run.per_step_us)],
    [
      'in compiled code (profiled)',
      `${microseconds(run.compiled_us)} per step (${percent(run.compiled_share)})`
    ],
    [
      'in eager code (profiled)',
      `${microseconds(run.eager_us)} per step (${percent(1 - run.compiled_share)})`
    ],
    ['the profiled window', microseconds(run.wall_us)]
  ];
  return el(
    'table',
    { class: 'tcx-table tcx-facts' },
    el(
      'tbody',
      null,
      ...rows.map(([k, v]) =>
        el(
          'tr',
          null,
          el('th', { attrs: { scope: 'row' } }, k),
          el('td', null, v)
        )
      )
    )
  );
}

function goLink(
  ctx: Context,
  text: string,
  target: Target | undefined,
  title?: string
): Child {
  return target ? link(text, () => ctx.go(target), title) : text;
}

/** A frame's or a break's line, linked to Source; nothing where the document names no file. */
function placeLink(
  ctx: Context,
  loc: { file: string | null; line: number | null }
): Child {
  return loc.file
    ? goLink(
        ctx,
        where(loc, sourceLabels(ctx.doc)),
        lineTarget(loc.file, loc.line),
        whereTitle(loc)
      )
    : '';
}

function framesTable(ctx: Context, run: Run): HTMLTableElement {
  const t = table(
    [
      'compile',
      'frame',
      'where',
      'entered',
      'per step',
      'total',
      'mean',
      'in kernels',
      'outside kernels',
      'guards per entry',
      'outside kernels, per entry',
      'hot'
    ],
    run.frames.map(f => [
      el(
        'span',
        null,
        goLink(
          ctx,
          f.compile_id,
          compileTarget(ctx.doc, f.compile),
          `compile ${f.compile_id} in Guards & recompiles`
        ),
        f.backward ? el('span', { class: 'tcx-run-mark' }, 'backward') : null
      ),
      el('code', null, wrappable(f.frame)),
      placeLink(ctx, f),
      count(f.entered),
      num(f.per_step),
      microseconds(f.total_us),
      microseconds(f.mean_us),
      microseconds(f.kernel_us),
      microseconds(f.outside_us),
      guards(f),
      split(f),
      f.hot
        ? el(
            'span',
            {
              class: 'tcx-run-mark tcx-run-hot',
              title:
                'of the cache entries of this frame, the one with the most time'
            },
            'hot'
          )
        : ''
    ]),
    'tcx-run-frames'
  );
  t.querySelectorAll('tbody tr').forEach((tr, i) =>
    tr.setAttribute('data-row', `frame-${i}`)
  );
  return t;
}

const SPLIT: Array<[keyof NonNullable<RunFrame['outside_split']>, string]> = [
  ['dynamo_us', 'Dynamo'],
  ['aot_us', 'AOTAutograd'],
  ['wrapper_us', 'wrapper'],
  ['launch_us', 'launches']
];

/** Figures a cell holds, one a line (so the table stays as wide as its longest figure). */
function lines(parts: string[]): Child {
  return parts.length
    ? el('span', null, ...parts.map(part => el('div', null, part)))
    : '—';
}

/** Steady guard time per entry beside torch's cold figure from the compile. */
function guards(f: RunFrame): Child {
  if (f.backward) {
    return '—';
  }
  const said = [
    typeof f.guard_us === 'number' ? `${microseconds(f.guard_us)} steady` : '',
    typeof f.guard_latency_us === 'number'
      ? `${microseconds(f.guard_latency_us)} cold (torch)`
      : ''
  ].filter(Boolean);
  return lines(said);
}

function split(f: RunFrame): Child {
  const found = f.outside_split;
  if (!found) {
    return '—';
  }
  return lines(
    SPLIT.filter(([key]) => found[key]).map(
      ([key, what]) => `${what} ${microseconds(found[key] ?? 0)}`
    )
  );
}

/** What ran in a gap: each name with its time per profiled step and share of the step. */
function names(run: Run, g: RunGap): Child {
  const found = g.names ?? [];
  if (!found.length) {
    return '—';
  }
  return el(
    'ul',
    { class: 'tcx-run-names' },
    ...found.map(n => {
      let text = `${n.label ?? n.name}: ${microseconds(n.per_step_us)}`;
      if (run.per_step_us) {
        text += ` (${percent(n.per_step_us / run.per_step_us)})`;
      }
      if (typeof n.unprofiled_us === 'number') {
        text += `, ${microseconds(n.unprofiled_us)} without the profiler`;
      }
      return el('li', null, text);
    })
  );
}

function gapsTable(ctx: Context, run: Run): HTMLTableElement {
  const t = table(
    [
      'eager gap',
      'where',
      'gaps',
      'per step',
      'of the step',
      'total',
      'what ran there'
    ],
    run.gaps.map(g => [
      goLink(
        ctx,
        g.label,
        breakTarget(ctx.doc, g.break),
        "this break's site among the Overview's findings"
      ),
      placeLink(ctx, g),
      count(g.count),
      microseconds(g.per_step_us),
      run.per_step_us ? percent(g.per_step_us / run.per_step_us) : '—',
      microseconds(g.total_us),
      names(run, g)
    ]),
    'tcx-run-gaps'
  );
  t.querySelectorAll('tbody tr').forEach((tr, i) =>
    tr.setAttribute('data-row', `gap-${i}`)
  );
  return t;
}

/** The kinds of span drawn, each with its swatch: only those the step has. */
function legend(run: Run): HTMLElement {
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

export function runTab(ctx: Context): TabView {
  const run = runOf(ctx.doc);
  if (!run) {
    return {
      element: el(
        'div',
        { class: 'tcx-run' },
        note(
          ctx.doc.profile
            ? RUN_BEFORE_NOTE
            : 'No profile in this document: explore(..., profile=True), %%tcompile --profile, tcexplore.capture(profile=True) or tcexplore run --profile measures each compiled frame and the eager gaps.'
        )
      )
    };
  }
  const element = el('div', { class: 'tcx-run' });
  const pick = (row: Row) => {
    const key = `${row.kind}-${row.index}`;
    element
      .querySelectorAll('.tcx-active')
      .forEach(node => node.classList.remove('tcx-active'));
    element
      .querySelectorAll(`[data-row="${key}"]`)
      .forEach(node => node.classList.add('tcx-active'));
    element
      .querySelector(`tr[data-row="${key}"]`)
      ?.scrollIntoView?.({ block: 'nearest' });
  };
  const t = run.timeline;
  append(
    element,
    el('h3', { class: 'tcx-run-headline' }, run.headline),
    run.step_time?.slowdown_note
      ? el('p', { class: 'tcx-run-slowdown' }, run.step_time.slowdown_note)
      : null,
    facts(run),
    el('p', { class: 'tcx-muted' }, run.how),
    el(
      'h4',
      null,
      `Step ${t.step}, drawn to scale: ${microseconds(t.duration_us)}`
    ),
    timeline(run, pick),
    legend(run),
    t.spans_left_out > 0
      ? note(
          `${count(t.spans_left_out)} more spans of this step are not drawn (past the drawing limit); the tables below count them.`
        )
      : null,
    el('h4', null, 'Compiled frames by time'),
    run.frames.length
      ? framesTable(ctx, run)
      : note('No compiled frame ran in the steady steps.'),
    el('h4', null, 'Eager gaps by cause'),
    run.gaps.length
      ? gapsTable(ctx, run)
      : note('No eager gap between compiled regions.')
  );
  return {
    element,
    reveal(target) {
      if (target.tab !== 'run') {
        return;
      }
      if (typeof target.frame === 'number') {
        pick({ kind: 'frame', index: target.frame });
      } else if (typeof target.gap === 'number') {
        pick({ kind: 'gap', index: target.gap });
      }
    }
  };
}
