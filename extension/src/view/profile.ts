/** The Profile tab: the step's verdict, the heaviest lines, the kernels on a roofline. */

import { microseconds, percent, rate } from '../model/format';
import { TimedLine, topLines, verdictLine } from '../model/profile';
import { RUN_BEFORE_NOTE, runOf } from '../model/run';
import { Profile, Target } from '../model/types';
import { Context, TabView } from './context';
import { code, el, link, note } from './dom';
import { kernelRows } from './kerneltimes';
import { stepBar, stepFacts } from './profilestep';
import { rooflineChart } from './roofline';

/** The source lines by time, each with its bar, linked to its place where it has one. */
function lineList(ctx: Context, lines: TimedLine[]): HTMLElement {
  return lines.length
    ? el(
        'ol',
        { class: 'tcx-time-lines' },
        ...lines.map(l =>
          el(
            'li',
            null,
            el('span', {
              class: 'tcx-time-bar',
              attrs: { style: `width: ${(l.relative * 100).toFixed(1)}%` }
            }),
            el(
              'span',
              { class: 'tcx-time-value' },
              `${microseconds(l.us)} · ${percent(l.share)}`
            ),
            ' ',
            l.target
              ? link(l.label, () => ctx.go(l.target as Target))
              : el('span', { class: 'tcx-muted' }, l.label),
            ' ',
            code(l.code)
          )
        )
      )
    : note('No kernel time was attributed to a source line.');
}

/** The machine's roofs, and how they and the profile were had. */
function roofsNote(profile: Profile): HTMLElement[] {
  return [
    el(
      'p',
      null,
      `Roofs of ${profile.peaks.device ?? 'this machine'}: ${rate(profile.peaks.bandwidth_gbps, 'GB/s')}; ` +
        Object.entries(profile.peaks.gflops)
          .map(([d, v]) => `${d} ${rate(v, 'GFLOP/s')}`)
          .join(', ')
    ),
    el(
      'p',
      { class: 'tcx-muted' },
      `${profile.peaks.how}. Profiled with ${profile.how}; it took ${(profile.cost_s ?? 0).toFixed(2)} s.`
    )
  ];
}

export function profileTab(ctx: Context): TabView {
  const profile = ctx.doc.profile;
  if (!profile) {
    return {
      element: el(
        'div',
        { class: 'tcx-profile' },
        note(
          'No profile in this document: explore(..., profile=True), %%tcompile --profile, tcexplore.capture(profile=True) or tcexplore run --profile measures every kernel.'
        )
      )
    };
  }
  const kernels = kernelRows(ctx, profile);
  const pick = (index: number) => {
    kernels
      .querySelectorAll('tr.tcx-active')
      .forEach(tr => tr.classList.remove('tcx-active'));
    const row = kernels.querySelector(`tbody tr[data-index="${index}"]`);
    row?.classList.add('tcx-active');
    row?.scrollIntoView({ block: 'nearest' });
  };
  const step = profile.step;
  const element = el(
    'div',
    { class: 'tcx-profile' },
    el(
      'h3',
      { class: `tcx-verdict tcx-verdict-${step.verdict}` },
      verdictLine(profile)
    ),
    step.unreliable ? note(step.unreliable, 'tcx-note tcx-warning') : null,
    stepBar(profile),
    runOf(ctx.doc)
      ? el(
          'p',
          null,
          link(
            'Each compiled frame and the eager gaps between them, one step drawn →',
            () => ctx.go({ tab: 'run' })
          )
        )
      : note(RUN_BEFORE_NOTE, 'tcx-muted'),
    stepFacts(profile),
    el(
      'ul',
      { class: 'tcx-advice' },
      ...step.advice.map(a => el('li', null, a))
    ),
    el('h4', null, 'Source lines by time'),
    lineList(ctx, topLines(ctx.doc)),
    el('h4', null, 'Kernels against the roofline'),
    ...roofsNote(profile),
    rooflineChart(profile, pick),
    kernels
  );
  return {
    element,
    reveal(target) {
      if (target.tab === 'profile' && typeof target.kernel === 'number') {
        pick(target.kernel);
      }
    }
  };
}
