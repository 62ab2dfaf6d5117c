/**
 * The Profile tab's step: its wall time as one bar to scale, split by where it went, and
 * its figures (in kernels, outside them, the timing samples', one synced call's), with what
 * decided them.
 */

import { microseconds, percent } from '../model/format';
import { stepSegments } from '../model/profile';
import { Profile } from '../model/types';
import { factsTable, svg } from './dom';

const STEP_WIDTH = 640;

/** The wall time per step as one bar to scale, split by where it went, on a labelled axis. */
export function stepBar(profile: Profile): SVGSVGElement {
  const segments = stepSegments(profile);
  const total = Math.max(profile.step.wall_us, profile.step.kernel_us);
  const chart = svg('svg', {
    class: 'tcx-chart tcx-step-bar',
    viewBox: `0 0 ${STEP_WIDTH} 58`,
    width: STEP_WIDTH,
    role: 'img',
    'aria-label': 'wall time per step, split by where it went'
  });
  let x = 0;
  for (const s of segments) {
    const w = s.fraction * STEP_WIDTH;
    chart.append(
      svg(
        'rect',
        {
          x,
          y: 4,
          width: Math.max(w, 1),
          height: 24,
          class: `tcx-seg tcx-seg-${s.kind}`
        },
        svg(
          'title',
          {},
          `${s.label}: ${microseconds(s.us)} (${percent(s.fraction)})`
        )
      )
    );
    if (w > 70) {
      chart.append(
        svg(
          'text',
          { x: x + 4, y: 21, class: 'tcx-seg-label' },
          `${percent(s.fraction)} ${s.kind}`
        )
      );
    }
    x += w;
  }
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const at = Math.min(f * STEP_WIDTH, STEP_WIDTH - 1);
    chart.append(
      svg('line', { x1: at, x2: at, y1: 28, y2: 34, class: 'tcx-axis' }),
      svg(
        'text',
        {
          x: at,
          y: 48,
          class: 'tcx-chart-value',
          'text-anchor': f === 0 ? 'start' : f === 1 ? 'end' : 'middle'
        },
        microseconds(total * f)
      )
    );
  }
  chart.append(
    svg('line', { x1: 0, x2: STEP_WIDTH, y1: 28, y2: 28, class: 'tcx-axis' })
  );
  return chart;
}

/** The step's figures as a table: what decided them first, then the wall time and its split. */
export function stepFacts(profile: Profile): HTMLTableElement {
  const step = profile.step;
  const figures: Array<[string, string]> = [
    [
      profile.scope === 'run' ? 'wall time over the run' : 'wall time per call',
      `${microseconds(step.wall_us)} (${step.wall_source ?? ''})`
    ],
    [
      'in kernels',
      `${microseconds(step.kernel_us)} (${percent(1 - step.overhead_share)})`
    ],
    [
      'outside kernels',
      `${microseconds(step.overhead_us)} (${percent(step.overhead_share)})`
    ]
  ];
  if (profile.calls?.line) {
    figures.push(['calls of compiled code', profile.calls.line]);
  }
  if (step.timing_wall_us) {
    figures.push([
      "timing samples' median",
      `${microseconds(step.timing_wall_us)} (without the profiler)`
    ]);
  }
  if (typeof step.basis?.synced_us === 'number') {
    figures.push([
      'one call, then a sync',
      `${microseconds(step.basis.synced_us)} (latency, not a loop's cost)`
    ]);
  }
  if (step.basis?.line) {
    figures.unshift(['decided by', step.basis.line]);
  }
  return factsTable(figures);
}
