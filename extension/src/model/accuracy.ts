/** The Accuracy tab: per-output errors and the first diverging node, linked. */

import { num } from './format';
import { LeafDiff, Target, TcxDocument } from './types';

export interface DiffRow {
  path: string;
  verdict: string;
  ok: boolean;
  detail: string;
  maxAbs: string;
  maxRel: string;
  mismatched: string;
}

export function diffRows(leaves: LeafDiff[]): DiffRow[] {
  return leaves.map(d => ({
    path: d.path || '(output)',
    verdict: d.ok ? 'match' : 'MISMATCH',
    ok: d.ok,
    detail:
      d.kind === 'tensor'
        ? `${d.dtype ?? ''}[${(d.shape ?? []).join(', ')}]`
        : d.kind === 'value'
          ? `expected ${d.expected ?? ''}, actual ${d.actual ?? ''}`
          : `${d.kind}: expected ${d.expected ?? ''}, actual ${d.actual ?? ''}`,
    maxAbs: num(d.max_abs_err),
    maxRel: num(d.max_rel_err),
    mismatched: typeof d.mismatched === 'number' ? `${d.mismatched}${d.numel ? ` of ${d.numel}` : ''}` : '—'
  }));
}

export interface DivergenceLinks {
  node?: Target;
  kernels: Array<{ name: string; target: Target }>;
  line?: Target;
}

/** Where the first divergence is in the other tabs: its Dynamo node, kernels and line. */
export function divergenceLinks(doc: TcxDocument): DivergenceLinks {
  const d = doc.accuracy?.first_divergence;
  const links: DivergenceLinks = { kernels: [] };
  if (!d) {
    return links;
  }
  const withGraph = doc.compiles.map((c, i) => ({ c, i })).filter(({ c }) => c.dynamo_graph);
  const preferred = typeof d.graph_index === 'number' ? withGraph[d.graph_index] : undefined;
  const holder = [preferred, ...withGraph].find(e => e && e.c.dynamo_graph?.nodes.some(n => n.name === d.node));
  if (holder) {
    links.node = { tab: 'graphs', compile: holder.i, graph: 'dynamo', node: d.node };
  }
  for (const name of d.kernels ?? []) {
    doc.compiles.forEach((c, ci) =>
      c.output_codes.forEach((o, oi) => {
        if (o.kernels.some(k => k.name === name) && !links.kernels.some(k => k.name === name)) {
          links.kernels.push({ name, target: { tab: 'fusion', compile: ci, output: oi, kernel: name } });
        }
      })
    );
  }
  if (d.source?.file && typeof d.source.line === 'number') {
    links.line = { tab: 'source', file: d.source.file, line: d.source.line };
  }
  return links;
}
