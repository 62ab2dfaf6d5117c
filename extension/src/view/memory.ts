/** The Memory tab: the memory finding, measured peaks, what each compile saves for backward
 * (each tensor linked to its forward node and user line), what the partitioner recomputes,
 * and Inductor's buffers per output code (linked to the code). */

import { formatBytes, sourceLabels, where } from '../model/format';
import { MemoryFinding, memoryCompiles, memoryFinding } from '../model/memory';
import { Compile, SavedTensor } from '../model/types';
import { Context, TabView } from './context';
import { Child, code, el, link, note, table } from './dom';

function userLine(ctx: Context, loc: SavedTensor['user_location']): Child {
  if (!loc) {
    return el('span', { class: 'tcx-muted' }, '—');
  }
  return link(where(loc, sourceLabels(ctx.doc)), () =>
    ctx.go({ tab: 'source', file: loc.file, line: loc.line })
  );
}

/** The finding as the Overview and the Memory tab show it. */
export function memoryFindingItem(ctx: Context, f: MemoryFinding): HTMLElement {
  const labels = sourceLabels(ctx.doc);
  return el(
    'li',
    { class: `tcx-finding tcx-${f.severity} tcx-finding-memory` },
    el('span', { class: 'tcx-badge' }, f.severity),
    el(
      'div',
      { class: 'tcx-finding-body' },
      link(f.title, () => ctx.go({ tab: 'memory' }), 'Where the memory goes'),
      el('div', { class: 'tcx-muted' }, f.evidence),
      f.locations.length
        ? el(
            'div',
            null,
            'Saved at: ',
            ...f.locations.flatMap((l, i) => [
              i ? ', ' : '',
              link(where(l, labels), () =>
                ctx.go({ tab: 'source', file: l.file, line: l.line })
              )
            ])
          )
        : null,
      f.advice ? el('div', null, `Advice: ${f.advice}`) : null
    )
  );
}

function peaks(ctx: Context): HTMLElement | null {
  const measured = ctx.doc.memory;
  if (!measured) {
    return null;
  }
  if (measured.error) {
    return note(
      `The memory measurement failed: ${measured.error.type ?? ''}: ${measured.error.message ?? ''}`,
      'tcx-error'
    );
  }
  const p = measured.peak_bytes;
  if (!p) {
    return null;
  }
  const rows: Child[][] = [];
  for (const side of ['eager', 'compiled'] as const) {
    const peak = p[side];
    if (peak) {
      rows.push([
        side,
        formatBytes(peak.peak_bytes),
        formatBytes(peak.above_before_bytes)
      ]);
    }
  }
  const pools = (measured.cudagraph_pools ?? []).map(pool => [
    JSON.stringify(pool.pool),
    formatBytes(pool.reserved_bytes),
    formatBytes(pool.allocated_bytes),
    pool.share_of_compiled_peak === undefined
      ? '—'
      : `${Math.round(pool.share_of_compiled_peak * 100)}%`
  ]);
  return el(
    'section',
    { class: 'tcx-memory-peaks' },
    el('h4', null, 'Peak memory of one call'),
    table(['call', 'peak', 'above what was allocated before'], rows),
    el('p', { class: 'tcx-muted' }, `Measured on ${p.device}: ${p.how}.`),
    pools.length
      ? table(
          ['CUDA-graph pool', 'reserved', 'allocated', 'of the compiled peak'],
          pools
        )
      : null
  );
}

function savedSection(
  ctx: Context,
  index: number,
  c: Compile
): HTMLElement | null {
  const memory = c.memory!;
  const saved = memory.saved_for_backward;
  if (!saved) {
    return null;
  }
  const graph = (kind: string, node: string): HTMLElement =>
    link(
      node,
      () =>
        ctx.go({ tab: 'graphs', compile: index, graph: `aot:${kind}`, node }),
      `${node} in the AOT ${kind} graph`
    );
  const rows = saved.tensors.map(t => [
    graph('forward', t.node),
    code(t.target ?? ''),
    t.kind,
    `${t.dtype}[${t.shape.join(', ')}]`,
    formatBytes(t.bytes),
    userLine(ctx, t.user_location)
  ]);
  const kinds = Object.entries(saved.bytes_by_kind)
    .map(([k, v]) => `${k} ${formatBytes(v)}`)
    .join(', ');
  const budget =
    memory.activation_memory_budget === null
      ? ''
      : `; activation_memory_budget ${memory.activation_memory_budget}`;
  const recomputed = memory.recomputed ?? [];
  return el(
    'section',
    { class: 'tcx-memory-saved', attrs: { 'data-compile': c.id } },
    el('h4', null, `Compile ${c.id}: saved for backward`),
    el(
      'p',
      null,
      `${formatBytes(saved.bytes)} in ${saved.storages} storages` +
        (saved.unsized ? `, ${saved.unsized} of symbolic size` : '') +
        ` (${kinds})${budget}`
    ),
    table(['saved node', 'op', 'kind', 'tensor', 'bytes', 'user line'], rows),
    recomputed.length
      ? el(
          'div',
          null,
          el(
            'p',
            null,
            `Recomputed in backward (${recomputed.length} nodes) instead of saved`
          ),
          table(
            ['node', 'op', 'bytes', 'user line'],
            recomputed.map(r => [
              graph('backward', r.node),
              code(r.target),
              formatBytes(r.bytes),
              userLine(ctx, r.user_location)
            ])
          )
        )
      : null
  );
}

function buffersSection(ctx: Context): HTMLElement | null {
  const rows = memoryCompiles(ctx.doc).flatMap(({ index, compile }) =>
    compile.memory!.buffers.map(b => [
      link(`${compile.id} · ${b.kind ?? 'output'} #${b.output_code}`, () =>
        ctx.go({ tab: 'code', compile: index, output: b.output_code })
      ),
      String(b.buffers),
      String(b.reuses),
      formatBytes(b.planned_peak_bytes),
      formatBytes(b.allocated_bytes),
      formatBytes(b.without_reuse_bytes)
    ])
  );
  return rows.length
    ? el(
        'section',
        { class: 'tcx-memory-buffers' },
        el('h4', null, "Inductor's buffers per output code"),
        el(
          'p',
          { class: 'tcx-muted' },
          "From the wrapper's own statements: the most bytes of its allocations alive at once (planned peak), their sum, and the sum had no buffer been reused."
        ),
        table(
          [
            'output code',
            'buffers',
            'reuses',
            'planned peak',
            'allocated',
            'without reuse'
          ],
          rows
        )
      )
    : null;
}

export function memoryTab(ctx: Context): TabView {
  const finding = memoryFinding(ctx.doc);
  const element = el(
    'div',
    { class: 'tcx-memory' },
    finding
      ? el('ul', { class: 'tcx-findings' }, memoryFindingItem(ctx, finding))
      : null,
    peaks(ctx),
    ...memoryCompiles(ctx.doc).map(({ index, compile }) =>
      savedSection(ctx, index, compile)
    ),
    buffersSection(ctx)
  );
  if (!finding && !memoryCompiles(ctx.doc).length) {
    element.appendChild(
      note(
        'Nothing about memory in this document: it has no AOT graphs or output code, and explore(..., memory=True) was not run.'
      )
    );
  }
  return { element };
}
