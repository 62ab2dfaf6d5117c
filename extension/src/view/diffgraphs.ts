/**
 * A changed compile's graph in the diff view: its differing nodes, A beside B, what changed
 * and the user line each was traced from.
 */

import {
  CompileDiff,
  GraphDiff,
  NodeChange,
  NodeView
} from '../model/difftypes';
import { graphLabel, nodeTarget, shortTarget, Side } from '../model/diffview';
import { plural, where } from '../model/format';
import { diffLabels, MARK, sideLink, View } from './diffparts';
import { code, el, note } from './dom';

export const MAX_NODE_ROWS = 300;

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

function nodeRow(
  view: View,
  entry: CompileDiff,
  graph: GraphDiff,
  node: NodeChange
): HTMLElement {
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
}

export function graphSection(
  view: View,
  entry: CompileDiff,
  graph: GraphDiff,
  open: boolean
): HTMLElement {
  const shown = graph.nodes.slice(0, MAX_NODE_ROWS);
  const body = el(
    'tbody',
    null,
    ...shown.map(node => nodeRow(view, entry, graph, node))
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
