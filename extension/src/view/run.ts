/**
 * The Run tab: one profiled step drawn as a timeline (compiled regions and the eager gaps
 * between them), the compiled frames by time and the eager gaps by cause. Every figure and
 * text is the document's `profile.run`; clicking a span selects its row.
 */

import { count, microseconds } from '../model/format';
import { RUN_BEFORE_NOTE, runOf } from '../model/run';
import { Context, TabView } from './context';
import { append, el, note } from './dom';
import { facts, framesTable, gapsTable } from './runtables';
import { legend, Row, timeline } from './runtimeline';

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
