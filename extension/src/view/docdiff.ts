/**
 * The diff view: two compilations side by side (A | B). Counts and measurements first;
 * then each compile that changed: its graphs' nodes, guards, and kernels with their fused
 * nodes and source diff. Node and kernel names link into the explorers of A and B where
 * those are open (see links.ts).
 */

import {
  CompileDiff,
  DocDiff,
  GraphDiff,
  KernelChange,
  NodeChange,
  NodeView,
  OutputDiff
} from '../model/difftypes';
import {
  checkDiff,
  graphLabel,
  kernelTarget,
  nodeTarget,
  shortTarget,
  Side,
  sideName,
  splitRows
} from '../model/diffview';
import { num, plural, where } from '../model/format';
import { Target } from '../model/types';
import { code, el, link, note, table } from './dom';
import { OpenSide, pageLinks } from './links';

export const MAX_NODE_ROWS = 300;

const MARK: Record<string, string> = {
  added: '+',
  removed: '−',
  changed: '~',
  same: '='
};
/** Both sides' cell labels: a cell's line shows as "cell [2], line 13", other files by base name. */
function diffLabels(diff: DocDiff): Record<string, string> {
  return { ...(diff.a.source_labels ?? {}), ...(diff.b.source_labels ?? {}) };
}

interface View {
  diff: DocDiff;
  follow(side: Side, target: Target | null): void;
}

function chip(status: string): HTMLElement {
  return el(
    'span',
    { class: `tcx-chip tcx-diff-${status}` },
    `${MARK[status] ?? ''} ${status}`
  );
}

function sideLink(
  view: View,
  side: Side,
  text: string | null,
  target: Target | null
): HTMLElement {
  const label = text ?? '?';
  return target
    ? link(
        label,
        () => view.follow(side, target),
        `show in ${sideName(view.diff, side)}`
      )
    : code(label);
}

function header(diff: DocDiff): HTMLElement {
  const box = (side: Side) =>
    el(
      'div',
      { class: 'tcx-diff-side' },
      el('strong', null, sideName(diff, side)),
      el(
        'div',
        { class: 'tcx-muted' },
        [diff[side].created, diff[side].torch && `torch ${diff[side].torch}`]
          .filter(Boolean)
          .join(' · ')
      )
    );
  return el(
    'div',
    { class: 'tcx-diff-head' },
    el('h3', null, 'torch.compile diff'),
    el(
      'div',
      { class: 'tcx-diff-sides' },
      box('a'),
      el('span', { class: 'tcx-arrow' }, '→'),
      box('b')
    )
  );
}

function counts(diff: DocDiff): HTMLElement {
  const s = diff.summary as Record<string, number>;
  const rows = ['compiles', 'nodes', 'kernels', 'guards'].map(thing => [
    thing,
    ...['added', 'removed', 'changed'].map(what =>
      s[`${thing}_${what}`] === undefined ? '' : String(s[`${thing}_${what}`])
    )
  ]);
  const empty = Object.values(s).every(v => !v);
  return el(
    'div',
    { class: 'tcx-diff-counts' },
    empty
      ? el(
          'p',
          { class: 'tcx-ok' },
          'No differences in what torch.compile produced.'
        )
      : null,
    table(['', 'added', 'removed', 'changed'], rows)
  );
}

function measurements(diff: DocDiff): HTMLElement | null {
  const rows: string[][] = [];
  const show = (value: unknown) =>
    typeof value === 'boolean'
      ? value
        ? 'yes'
        : 'no'
      : typeof value === 'number'
        ? num(value)
        : '—';
  const ratio = (a: unknown, b: unknown) =>
    typeof a === 'number' && typeof b === 'number' && a ? `${num(b / a)}×` : '';
  if (diff.timing) {
    const { a, b } = diff.timing;
    for (const key of [
      'compiled_ms',
      'eager_ms',
      'speedup',
      'compile_s',
      'noisy'
    ] as const) {
      rows.push([key, show(a[key]), show(b[key]), ratio(a[key], b[key])]);
    }
  }
  if (diff.accuracy) {
    const { a, b } = diff.accuracy;
    rows.push(['accurate', show(a.ok), show(b.ok), '']);
    rows.push(['max_abs_err', show(a.max_abs_err), show(b.max_abs_err), '']);
  }
  return rows.length
    ? el(
        'div',
        { class: 'tcx-diff-measurements' },
        el('h4', null, 'Timing and accuracy'),
        table(['', 'A', 'B', 'B / A'], rows)
      )
    : null;
}

function compileTitle(
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

function nodeCell(
  view: View,
  entry: CompileDiff,
  graph: GraphDiff,
  side: Side,
  node: NodeView | null
): HTMLElement | null {
  if (!node) {
    return null;
  }
  const meta = node.shape
    ? `${node.dtype ?? ''}[${node.shape.join(', ')}]`
    : (node.dtype ?? '');
  return el(
    'div',
    null,
    sideLink(view, side, node.name, nodeTarget(entry, graph, side, node.name)),
    ' ',
    code(shortTarget(node.target)),
    meta ? el('div', { class: 'tcx-muted' }, meta) : null
  );
}

function changeText(node: NodeChange): string {
  return node.changes
    .map(field => {
      if (field === 'target') {
        return `${shortTarget(node.a?.target)} → ${shortTarget(node.b?.target)}`;
      }
      if (field === 'inputs') {
        return `inputs (${(node.a?.args ?? []).join(', ')}) → (${(node.b?.args ?? []).join(', ')})`;
      }
      return field;
    })
    .join('; ');
}

function graphSection(
  view: View,
  entry: CompileDiff,
  graph: GraphDiff,
  open: boolean
): HTMLElement {
  const shown = graph.nodes.slice(0, MAX_NODE_ROWS);
  const body = el(
    'tbody',
    null,
    ...shown.map(node => {
      const source = (node.b ?? node.a)?.source;
      return el(
        'tr',
        {
          class: `tcx-diff-${node.status}`,
          attrs: { 'data-status': node.status }
        },
        el('td', null, MARK[node.status]),
        el('td', null, nodeCell(view, entry, graph, 'a', node.a)),
        el('td', null, nodeCell(view, entry, graph, 'b', node.b)),
        el('td', null, changeText(node)),
        el(
          'td',
          null,
          source
            ? el(
                'span',
                null,
                where(source, diffLabels(view.diff)),
                ' ',
                code(source.code ?? '')
              )
            : null
        )
      );
    })
  );
  const tally = (['changed', 'added', 'removed'] as const)
    .map(s => [s, graph.nodes.filter(n => n.status === s).length] as const)
    .filter(([, n]) => n)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
  return el(
    'details',
    {
      class: 'tcx-diff-graph',
      attrs: { 'data-graph': graph.graph, ...(open ? { open: '' } : {}) }
    },
    el(
      'summary',
      null,
      `${graphLabel(graph.graph)}: ${plural(graph.nodes.length, 'node')} differ (${tally})`
    ),
    graph.approximate
      ? note(
          'These graphs are too different to align: nodes are paired in order.'
        )
      : null,
    el(
      'table',
      { class: 'tcx-table tcx-diff-nodes' },
      el(
        'thead',
        null,
        el(
          'tr',
          null,
          ...['', 'A', 'B', 'what changed', 'user line'].map(h =>
            el('th', null, h)
          )
        )
      ),
      body
    ),
    graph.nodes.length > shown.length
      ? note(`… ${graph.nodes.length - shown.length} more nodes not shown`)
      : null
  );
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

function kernelSection(
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

function compileSection(view: View, entry: CompileDiff): HTMLElement {
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

/** The diff view for a "tcexplore-diff/1" object; `open` follows links (default: the page's explorers). */
export function createDiffView(data: unknown, open?: OpenSide): HTMLElement {
  const checked = checkDiff(data);
  if (!checked.ok) {
    return el(
      'div',
      { class: 'tcx-explorer tcx-unreadable' },
      el('p', { class: 'tcx-error', attrs: { role: 'alert' } }, checked.message)
    );
  }
  const diff = checked.diff;
  const opener = open ?? pageLinks({ a: diff.a.key, b: diff.b.key });
  const status = el('p', {
    class: 'tcx-diff-status tcx-note',
    attrs: { role: 'status', 'aria-live': 'polite' }
  });
  const view: View = {
    diff,
    follow(side, target) {
      if (target && opener(side, target)) {
        status.textContent = '';
      } else {
        status.textContent = `${sideName(diff, side)} is not open here: show its exploration in an open notebook to follow links into it.`;
      }
    }
  };
  const changed = diff.compiles.filter(c => c.status !== 'same');
  const same = diff.compiles.filter(c => c.status === 'same');
  return el(
    'div',
    { class: 'tcx-explorer tcx-diffview' },
    header(diff),
    counts(diff),
    measurements(diff),
    status,
    ...changed.map(entry => compileSection(view, entry)),
    same.length
      ? note(
          `${plural(same.length, 'compile')} unchanged: ${same.map(e => compileTitle(e, diffLabels(diff))).join('; ')}`,
          'tcx-muted'
        )
      : null
  );
}
