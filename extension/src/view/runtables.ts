/**
 * The Run tab's tables: the step's facts, the compiled frames by time and the eager gaps by
 * cause, each row keyed (`data-row`) to its span in the timeline, its compile, break and
 * line linked.
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
import { resumeLabel } from '../model/breaks';
import { breakTarget, compileTarget, lineTarget } from '../model/run';
import { Run, RunFrame, RunGap, Target } from '../model/types';
import { Context } from './context';
import { Child, el, factsTable, link, table, wrappable } from './dom';

export function facts(run: Run): HTMLTableElement {
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
  return factsTable(rows);
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

export function framesTable(ctx: Context, run: Run): HTMLTableElement {
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
      el('code', null, wrappable(resumeLabel(ctx.doc, f.frame) ?? f.frame)),
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

export function gapsTable(ctx: Context, run: Run): HTMLTableElement {
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
