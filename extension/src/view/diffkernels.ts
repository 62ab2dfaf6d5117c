/**
 * A changed kernel in the diff view: its names in A and B, and, drawn when opened, its
 * fused nodes and its source diff side by side.
 */

import { CompileDiff, KernelChange, OutputDiff } from '../model/difftypes';
import { kernelTarget, splitRows } from '../model/diffview';
import { chip, sideLink, View } from './diffparts';
import { el, note } from './dom';

function sourceTable(diff: string): HTMLElement {
  const rows = splitRows(diff).map(row => {
    if ('hunk' in row) {
      return el(
        'tr',
        { class: 'tcx-diff-hunk' },
        el('td', { attrs: { colspan: '4' } }, row.hunk)
      );
    }
    const cells = (line: typeof row.a) => [
      el(
        'td',
        { class: 'tcx-lineno' },
        line.no === null ? '' : String(line.no)
      ),
      el('td', { class: `tcx-diff-code tcx-diff-${line.kind}` }, line.text)
    ];
    return el('tr', null, ...cells(row.a), ...cells(row.b));
  });
  const cols = [
    'tcx-diff-no',
    'tcx-diff-text',
    'tcx-diff-no',
    'tcx-diff-text'
  ].map(c => el('col', { class: c }));
  return el(
    'table',
    { class: 'tcx-diff-source' },
    el('colgroup', null, ...cols),
    el('tbody', null, ...rows)
  );
}

export function kernelSection(
  view: View,
  entry: CompileDiff,
  output: OutputDiff,
  kernel: KernelChange
): HTMLElement {
  const body = el('div', { class: 'tcx-diff-kernel-body' });
  const build = () => {
    const fused = kernel.fused_nodes.map(pair =>
      pair.a === null
        ? el('span', { class: 'tcx-chip tcx-diff-added' }, `+${pair.b}`)
        : pair.b === null
          ? el('span', { class: 'tcx-chip tcx-diff-removed' }, `−${pair.a}`)
          : el(
              'span',
              { class: 'tcx-chip' },
              pair.a === pair.b ? pair.a : `${pair.a} → ${pair.b}`
            )
    );
    body.replaceChildren(
      el(
        'div',
        { class: 'tcx-diff-fused' },
        'fused post-grad nodes: ',
        ...fused
      ),
      kernel.source_diff
        ? sourceTable(kernel.source_diff)
        : note(
            'Same source (kernel names and hashes aside); only the fused nodes differ.'
          )
    );
  };
  const details = el(
    'details',
    { class: 'tcx-diff-kernel' },
    el(
      'summary',
      null,
      chip(kernel.status),
      ' ',
      kernel.a
        ? sideLink(
            view,
            'a',
            kernel.a.name,
            kernelTarget(entry, output, 'a', kernel.a)
          )
        : null,
      kernel.a && kernel.b ? ' → ' : null,
      kernel.b
        ? sideLink(
            view,
            'b',
            kernel.b.name,
            kernelTarget(entry, output, 'b', kernel.b)
          )
        : null
    ),
    body
  );
  details.addEventListener('toggle', () => {
    if (details.open && !body.childNodes.length) {
      build();
    }
  });
  return details;
}
