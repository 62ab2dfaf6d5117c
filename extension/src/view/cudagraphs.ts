import { cudaGraphSections, CudaGraphSection } from '../model/cudagraphs';
import { sourceLabels, where, whereTitle } from '../model/format';
import { Location } from '../model/types';
import { Context, TabView } from './context';
import { code, el, link, note, table } from './dom';

function userLine(ctx: Context, stack: Location[]): HTMLElement | string {
  const loc = stack.length ? stack[stack.length - 1] : null;
  if (!loc) {
    return '';
  }
  const line =
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
      : where(loc, sourceLabels(ctx.doc));
  return el('span', null, line, ' ', code(loc.code ?? ''));
}

function sectionView(ctx: Context, s: CudaGraphSection): HTMLElement {
  const partitions = s.partitions.map(p => [
    String(p.index),
    String(p.nodes),
    p.cudagraphable ? 'yes' : 'no',
    p.detail ?? ''
  ]);
  const ops = s.partitions.flatMap(p =>
    (p.ops ?? []).map(op => [
      String(p.index),
      `op${op.op}`,
      op.fx,
      op.reason,
      userLine(ctx, op.user_stack ?? [])
    ])
  );
  const summary = s.summary
    ? `${s.summary.partitions} partitions: ${s.summary.cudagraphable} CUDA-graphable, ${s.summary.non_cudagraphable} not`
    : null;
  return el(
    'section',
    null,
    el(
      'h4',
      null,
      s.compile === 'run time' ? 'At run time' : `Compile ${s.compile}`
    ),
    s.fastPathMissed
      ? el(
          'div',
          { class: 'tcx-warning' },
          el('p', null, s.fastPathMissed.explanation),
          el('p', null, `Fix: ${s.fastPathMissed.fix}`)
        )
      : null,
    s.skipReason !== null
      ? el(
          'p',
          { class: 'tcx-warning' },
          `CUDA graphs skipped: ${s.skipReason}`
        )
      : null,
    s.skips.length
      ? el(
          'div',
          null,
          el('p', null, 'Why CUDA graphs were skipped'),
          table(
            ['reason', 'user line'],
            s.skips.map(k => [k.reason, userLine(ctx, k.user_stack ?? [])])
          )
        )
      : null,
    summary ? el('p', null, summary) : null,
    partitions.length
      ? table(['partition', 'nodes', 'CUDA-graphable', 'detail'], partitions)
      : null,
    ops.length
      ? el(
          'div',
          null,
          el('p', null, 'Ops and why they are (not) in a CUDA graph'),
          table(['partition', 'op', 'FX node', 'reason', 'user line'], ops)
        )
      : null,
    s.recordings || s.rerecordings
      ? el(
          'p',
          null,
          `CUDA graphs recorded: ${s.recordings}, re-recorded: ${s.rerecordings}`
        )
      : null
  );
}

export function cudaGraphsTab(ctx: Context): TabView {
  const sections = cudaGraphSections(ctx.doc);
  const element = el('div', { class: 'tcx-cudagraphs' });
  const unrecorded = (ctx.doc.capture?.unavailable ?? []).find(
    u => u.field === 'compiles[].cudagraphs'
  );
  if (unrecorded) {
    element.appendChild(
      note(
        `CUDA-graph data is not available in this document: ${unrecorded.reason}. Capture the run with tcexplore to see it.`
      )
    );
  }
  if (!sections.length) {
    if (!unrecorded) {
      element.appendChild(
        note(
          'No CUDA-graph data in this document (CUDA graphs exist on GPU runs with mode="reduce-overhead" or "max-autotune").'
        )
      );
    }
    return { element };
  }
  for (const s of sections) {
    element.appendChild(sectionView(ctx, s));
  }
  return { element };
}
