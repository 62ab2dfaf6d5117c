/**
 * The Fusion tab's panel for a kernel: its kind, nodes and mapping, its measured time, the
 * lines of the output code that launch it, its ATen ops, its code (shown, or opened as a
 * cell) and the user lines it computes.
 */

import { FusionKernel } from '../model/fusion';
import {
  microseconds,
  percent,
  sourceLabels,
  where,
  whereTitle
} from '../model/format';
import { LaunchTime, launchTimes } from '../model/profile';
import { Kernel, ProfiledKernel } from '../model/types';
import { Context } from './context';
import { code, el, link, note } from './dom';
import { OutputRef } from './outputs';
import { openAsCell } from './workbench';

/** A kernel launched from several lines of its output code: each line's nodes and time. */
function launchList(launches: LaunchTime[]): HTMLElement | null {
  return launches.length
    ? el(
        'div',
        { class: 'tcx-launches' },
        el(
          'div',
          null,
          `launched from ${launches.length} lines of the output code, each computing its own nodes:`
        ),
        ...launches.map(l =>
          el(
            'div',
            { class: 'tcx-launch' },
            `${l.label}: `,
            code(l.nodes.join(', ') || '—'),
            l.time ? ` · ${l.time}` : ''
          )
        )
      )
    : null;
}

/** The user lines a kernel computes, each linked to Source where the document names its file. */
function userLines(ctx: Context, k: Kernel): HTMLElement {
  return k.user_lines?.length
    ? el(
        'div',
        { class: 'tcx-userlines' },
        el('div', null, 'user lines:'),
        ...k.user_lines.map(loc =>
          el(
            'div',
            { class: 'tcx-userline' },
            loc.file && typeof loc.line === 'number'
              ? link(
                  where(loc, sourceLabels(ctx.doc)),
                  () =>
                    ctx.go({
                      tab: 'source',
                      file: loc.file as string,
                      line: loc.line as number
                    }),
                  whereTitle(loc)
                )
              : where(loc, sourceLabels(ctx.doc)),
            ' ',
            code(loc.code ?? '')
          )
        )
      )
    : note('no user lines recorded', 'tcx-muted');
}

export function kernelPanel(
  ctx: Context,
  ref: OutputRef,
  fk: FusionKernel,
  measured: ProfiledKernel | undefined
): HTMLElement {
  const k = fk.kernel;
  return el(
    'div',
    { class: 'tcx-kernelinfo' },
    el(
      'h4',
      null,
      el('span', {
        class: 'tcx-swatch',
        attrs: { style: `background:${fk.colour}` }
      }),
      ' ',
      code(fk.label)
    ),
    el(
      'div',
      null,
      `${k.kind}${k.triton_kind ? ` (${k.triton_kind})` : ''} · ${fk.nodes.length} post-grad nodes · mapping: ${k.mapping}`
    ),
    measured
      ? el(
          'div',
          { class: 'tcx-kernel-measured' },
          `measured: ${microseconds(measured.time_us)} per step (${percent(measured.share)} of it)`
        )
      : null,
    launchList(launchTimes(k, measured)),
    k.aten_ops?.length
      ? el('div', null, 'ATen ops: ', code(k.aten_ops.join(', ')))
      : null,
    el(
      'div',
      null,
      link('show code', () =>
        ctx.go({
          tab: 'code',
          compile: ref.compile,
          output: ref.output,
          kernel: k.name
        })
      ),
      ' ',
      openAsCell(ctx, ref, fk.index)
    ),
    userLines(ctx, k)
  );
}
