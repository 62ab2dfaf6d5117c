import { plural } from '../model/format';
import {
  compilePicker,
  OLD_TIMING_NOTE,
  phaseBoxes,
  runtimeChart,
  timingSummary,
  timingVerdict
} from '../model/timing';
import { tracedFunctions, tracingChart, tracingNote } from '../model/tracing';
import { axisChart, icicle, runtimeBarChart } from './charts';
import { Context, TabView } from './context';
import { Child, el, note, select, table } from './dom';

function runtime(ctx: Context): Child[] {
  const t = ctx.doc.timing;
  const chart = runtimeChart(ctx.doc);
  if (!t || !chart) {
    return [
      note(
        'No runtime measurement in this document: tcexplore.explore() measures eager against compiled.'
      )
    ];
  }
  const verdict = timingVerdict(ctx.doc);
  return [
    verdict
      ? el(
          'p',
          { class: `tcx-timing-verdict tcx-finding tcx-${verdict.severity}` },
          el('span', { class: 'tcx-badge' }, verdict.severity),
          ' ',
          verdict.headline
        )
      : note(OLD_TIMING_NOTE),
    verdict && (verdict.busy || verdict.noise || verdict.advice)
      ? el(
          'div',
          { class: 'tcx-timing-warning', attrs: { role: 'note' } },
          ...[verdict.busy, verdict.noise, verdict.advice].map(text =>
            text ? el('p', null, text) : null
          )
        )
      : null,
    runtimeBarChart(chart),
    el(
      'p',
      { class: 'tcx-muted tcx-chart-key' },
      "Bars: medians, from 0. Whiskers: the middle half of the samples (IQR). Thin line: min to max; a max past the axis is marked ▸, not drawn to scale. The speedup's 95% interval comes from the paired samples (eager and compiled timed in alternation); when it holds 1×, the measurement cannot tell faster from slower."
    ),
    verdict ? table(['measure', 'value'], timingSummary(ctx.doc)) : null
  ];
}

function phases(ctx: Context): Child[] {
  const { doc } = ctx;
  const picker = compilePicker(doc);
  if (!picker.picks.length) {
    return [note('No compile-time phases in this document.')];
  }
  const holder = el('div');
  const show = (index: number) => {
    const c = doc.compiles[index];
    holder.replaceChildren(
      el(
        'p',
        { class: 'tcx-muted' },
        `${c.id}: ${plural(c.phases.length, 'top-level phase')}; hover a box for its name and time`
      ),
      icicle(phaseBoxes(c.phases))
    );
  };
  const first = picker.picks[0].index;
  show(first);
  return [
    el('p', { class: 'tcx-compile-total' }, `Compile time: ${picker.total}.`),
    el(
      'label',
      { class: 'tcx-muted' },
      'compile (slowest first) ',
      select(
        picker.picks.map(p => [String(p.index), p.label]),
        String(first),
        v => show(Number(v)),
        'compile'
      )
    ),
    holder
  ];
}

/** Dynamo's tracing time per user function, heaviest first, to scale. */
function tracing(ctx: Context): Child[] {
  const summary = tracedFunctions(ctx.doc);
  const chart = tracingChart(summary);
  if (!chart) {
    return [];
  }
  return [
    el('h4', null, 'Tracing time in your code'),
    el(
      'div',
      { class: 'tcx-tracing-chart' },
      axisChart(chart.axis, chart.bars, {
        label: 'Dynamo tracing time per user function',
        labelWidth: 200,
        width: 720
      })
    ),
    el('p', { class: 'tcx-muted tcx-chart-key' }, tracingNote(summary))
  ];
}

export function timingTab(ctx: Context): TabView {
  const element = el(
    'div',
    { class: 'tcx-timing' },
    el('h3', null, 'Eager vs compiled, per call'),
    ...runtime(ctx),
    el('h3', null, 'Compile-time phases'),
    ...tracing(ctx),
    ...phases(ctx)
  );
  return { element };
}
