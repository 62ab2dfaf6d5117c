/**
 * One compile of the diff view: what changed in it, its graphs, guards and kernels, and
 * links to its guards in A and B.
 */

import { CompileDiff } from '../model/difftypes';
import { where } from '../model/format';
import { graphSection } from './diffgraphs';
import { kernelSection } from './diffkernels';
import { chip, diffLabels, MARK, sideLink, View } from './diffparts';
import { code, el, note } from './dom';

export function compileTitle(
  entry: CompileDiff,
  labels: Record<string, string>
): string {
  const ref = (entry.a ?? entry.b)!;
  const ids =
    entry.a && entry.b && entry.a.id !== entry.b.id
      ? `${entry.a.id} → ${entry.b.id}`
      : ref.id;
  return `${ids} ${ref.frame?.function ?? '?'} (${where(ref.frame, labels)})`;
}

function guardSection(entry: CompileDiff): HTMLElement | null {
  const rows = [
    ...entry.guards.removed.map(g => ['removed', g] as const),
    ...entry.guards.added.map(g => ['added', g] as const)
  ];
  if (!rows.length) {
    return null;
  }
  return el(
    'div',
    { class: 'tcx-diff-guards' },
    el(
      'h4',
      null,
      `Guards: ${entry.guards.added.length} added, ${entry.guards.removed.length} removed`
    ),
    el(
      'table',
      { class: 'tcx-table' },
      el(
        'tbody',
        null,
        ...rows.map(([status, g]) =>
          el(
            'tr',
            { class: `tcx-diff-${status}` },
            el('td', null, MARK[status]),
            el('td', null, g.type ?? ''),
            el('td', null, code(g.expression ?? '')),
            el('td', null, g.user_code ? code(g.user_code) : null)
          )
        )
      )
    )
  );
}

export function compileSection(view: View, entry: CompileDiff): HTMLElement {
  const parts: Array<HTMLElement | null> = [];
  if (entry.status === 'added' || entry.status === 'removed') {
    const side = entry.status === 'added' ? 'B' : 'A';
    parts.push(
      note(
        `Only ${side} compiled this; its graphs and kernels are in ${side}'s explorer.`,
        'tcx-muted'
      )
    );
  }
  for (const change of entry.changes) {
    parts.push(
      el(
        'p',
        null,
        `${change.field}: `,
        code(String(change.a)),
        ' → ',
        code(String(change.b))
      )
    );
  }
  parts.push(
    ...entry.graphs.map((g, i) => graphSection(view, entry, g, i === 0))
  ); // the first graph open
  parts.push(guardSection(entry));
  for (const output of entry.outputs) {
    parts.push(
      el(
        'div',
        { class: 'tcx-diff-output' },
        el(
          'h4',
          null,
          `Kernels (${output.output}): ${output.kernels.length} differ`
        ),
        ...output.kernels.map(k => kernelSection(view, entry, output, k))
      )
    );
  }
  const ref = entry.a ?? entry.b;
  const guardLinks = (['a', 'b'] as const)
    .filter(s => entry[s])
    .map(s =>
      sideLink(view, s, `guards in ${s.toUpperCase()}`, {
        tab: 'guards',
        compile: entry[s]!.index
      })
    );
  return el(
    'details',
    {
      class: `tcx-diff-compile tcx-diff-compile-${entry.status}`,
      attrs: { open: '', 'data-compile': String(ref?.id ?? '') }
    },
    el(
      'summary',
      null,
      chip(entry.status),
      ' ',
      compileTitle(entry, diffLabels(view.diff))
    ),
    el('div', { class: 'tcx-toolbar' }, ...guardLinks),
    ...parts
  );
}
