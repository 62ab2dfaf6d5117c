/** The Accuracy tab: per-output errors and the first diverging node, linked. */

import { num } from './format';
import { Accuracy, LeafDiff, Target, TcxDocument } from './types';

/**
 * How a leaf's label is shown, as tcexplore/findings/accuracy.py decided it: match,
 * mismatch (a failure), random (differs because eager and Inductor draw different random
 * numbers: not a failure), other (not compared, the truncation row). A document written
 * before labels were stored has none: its rows show no verdict.
 */
export type LeafState = NonNullable<LeafDiff['state']>;

export interface DiffRow {
  path: string;
  verdict: string;
  state: LeafState;
  detail: string;
  maxAbs: string;
  maxRel: string;
  mismatched: string;
}

function truncatedDetail(d: LeafDiff): string {
  const differ = d.omitted_mismatches
    ? ` (${d.omitted_mismatches} of them differ)`
    : '';
  const stopped = d.limit_reached
    ? '; the comparison stopped at its leaf limit, the rest was not compared'
    : '';
  return `${d.omitted ?? 0} more leaves compared, not listed${differ}${stopped} (truncated)`;
}

function detail(d: LeafDiff): string {
  switch (d.kind) {
    case 'tensor':
      return `${d.dtype ?? ''}[${(d.shape ?? []).join(', ')}]`;
    case 'value':
      return d.ok
        ? `${d.type ?? 'value'} ${d.expected ?? ''}`
        : `${d.type ?? 'value'}: expected ${d.expected ?? ''}, actual ${d.actual ?? ''}`;
    case 'not_compared':
      return `${d.type ?? 'object'}: ${d.reason ?? 'not a tensor or a plain value'}`;
    case 'structure_mismatch':
      return `structure: missing in compiled ${d.expected ?? '—'}; only in compiled ${d.actual ?? '—'}`;
    case 'truncated':
      return truncatedDetail(d);
    default:
      return `${d.kind}: expected ${d.expected ?? ''}, actual ${d.actual ?? ''}`;
  }
}

/** A compared tensor leaf whose relative error is null: infinite (it differs where eager is 0). */
function infiniteRelative(d: LeafDiff): boolean {
  return (
    d.kind === 'tensor' &&
    d.max_rel_err === null &&
    typeof d.mismatched === 'number'
  );
}

/** One row per leaf, with the label Python stored for it (none in older documents). */
export function diffRows(leaves: LeafDiff[]): DiffRow[] {
  return leaves.map(d => ({
    path: d.kind === 'truncated' ? '…' : d.path || '(output)',
    verdict: d.label ?? '',
    state: d.state ?? 'other',
    detail: detail(d),
    maxAbs: num(d.max_abs_err),
    maxRel: infiniteRelative(d) ? '∞' : num(d.max_rel_err),
    mismatched:
      typeof d.mismatched === 'number'
        ? `${d.mismatched}${d.numel ? ` of ${d.numel}` : ''}`
        : '—'
  }));
}

/** Why the Accuracy tab shows no verdict: a document saved before verdicts were stored. */
export const OLD_ACCURACY_NOTE =
  'This document was saved before tcexplore stored its accuracy verdict and labels, so none are shown here. ' +
  'Read it with tcexplore.load() in Python (which computes them) and display or save it again.';

/** The float64 reference's rows (reference="fp64"): each side's error and Python's comparison of them. */
export function referenceRows(acc: Accuracy): string[][] {
  return (acc.reference?.outputs ?? []).map(r => [
    r.path || '(output)',
    num(r.eager_err),
    num(r.compiled_err),
    r.compiled_vs_eager
  ]);
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
  const withGraph = doc.compiles
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.dynamo_graph);
  const preferred =
    typeof d.graph_index === 'number' ? withGraph[d.graph_index] : undefined;
  const holder = [preferred, ...withGraph].find(
    e => e && e.c.dynamo_graph?.nodes.some(n => n.name === d.node)
  );
  if (holder) {
    links.node = {
      tab: 'graphs',
      compile: holder.i,
      graph: 'dynamo',
      node: d.node
    };
  }
  for (const name of d.kernels ?? []) {
    doc.compiles.forEach((c, ci) =>
      c.output_codes.forEach((o, oi) => {
        if (
          o.kernels.some(k => k.name === name) &&
          !links.kernels.some(k => k.name === name)
        ) {
          links.kernels.push({
            name,
            target: { tab: 'fusion', compile: ci, output: oi, kernel: name }
          });
        }
      })
    );
  }
  if (d.source?.file && typeof d.source.line === 'number') {
    links.line = { tab: 'source', file: d.source.file, line: d.source.line };
  }
  return links;
}
