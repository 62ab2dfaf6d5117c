/** The Accuracy tab: per-output errors and the first diverging node, linked. */

import { num, SourceLabels, where } from './format';
import { Accuracy, LeafDiff, Target, TcxDocument } from './types';

/**
 * match, mismatch, random (it differs, and the accuracy check found random ops to be the
 * cause), or neither: a leaf not compared, the note on rows left out.
 */
export type LeafState = 'match' | 'mismatch' | 'random' | 'other';

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
  const differ = d.omitted_mismatches ? ` (${d.omitted_mismatches} of them differ)` : '';
  const stopped = d.limit_reached ? '; the comparison stopped at its leaf limit, the rest was not compared' : '';
  return `${d.omitted ?? 0} more leaves compared, not listed${differ}${stopped} (truncated)`;
}

function detail(d: LeafDiff): string {
  switch (d.kind) {
    case 'tensor':
      return `${d.dtype ?? ''}[${(d.shape ?? []).join(', ')}]`;
    case 'value':
      return d.ok ? `${d.type ?? 'value'} ${d.expected ?? ''}` : `${d.type ?? 'value'}: expected ${d.expected ?? ''}, actual ${d.actual ?? ''}`;
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

function verdict(d: LeafDiff, randomCause: boolean): [string, LeafState] {
  if (!d.ok) {
    return randomCause ? ['differs (random ops)', 'random'] : ['MISMATCH', 'mismatch'];
  }
  if (d.kind === 'not_compared') {
    return ['not compared', 'other'];
  }
  return d.kind === 'truncated' ? ['', 'other'] : ['match', 'match'];
}

/** A compared tensor leaf whose relative error is null: infinite (it differs where eager is 0). */
function infiniteRelative(d: LeafDiff): boolean {
  return d.kind === 'tensor' && d.max_rel_err === null && typeof d.mismatched === 'number';
}

/** One row per leaf; `randomCause` when the check blamed random ops (Accuracy.cause). */
export function diffRows(leaves: LeafDiff[], randomCause = false): DiffRow[] {
  return leaves.map(d => {
    const [text, state] = verdict(d, randomCause);
    return {
      path: d.kind === 'truncated' ? '…' : d.path || '(output)',
      verdict: text,
      state,
      detail: detail(d),
      maxAbs: num(d.max_abs_err),
      maxRel: infiniteRelative(d) ? '∞' : num(d.max_rel_err),
      mismatched: typeof d.mismatched === 'number' ? `${d.mismatched}${d.numel ? ` of ${d.numel}` : ''}` : '—'
    };
  });
}

export interface AccuracyVerdict {
  severity: 'error' | 'warning' | 'ok';
  headline: string;
  /** With random ops: why they explain the difference, and what to do (the Accuracy tab). */
  explanation?: string;
  /** With random ops: the same in one sentence (the Overview). */
  hint?: string;
}

/**
 * The headline: a match, a difference at random ops (a warning with its fix), or a mismatch;
 * `labels` name notebook cells ("cell [5], line 3").
 */
export function accuracyVerdict(acc: Accuracy, labels: SourceLabels = {}): AccuracyVerdict {
  if (acc.ok) {
    return { severity: 'ok', headline: 'Compiled outputs match eager within tolerance.' };
  }
  const d = acc.first_divergence;
  const node = d ? `node ${d.node} (${d.target})${d.source ? ` — ${where(d.source, labels)}` : ''}` : '';
  const ops = (acc.random_ops ?? []).join(', ');
  const option = acc.fallback_random_option;
  const outside = 'create the random tensors outside the compiled code (seeded) and pass them in';
  const fix = option ? `To compare them, make Inductor use eager's random ops with ${option}, or ${outside}.` : `To compare them, ${outside}.`;
  const hint = `To compare, use ${option ? `${option} or ` : ''}random tensors made outside the compiled code.`;
  if (acc.cause === 'random' && d) {
    return {
      severity: 'warning',
      headline: `Compiled output differs from eager at a random op: ${node}.`,
      explanation: `Eager and Inductor draw different random numbers (${d.node} runs ${ops}), so these values differ by design, not because of a compiler error. ${fix}`,
      hint: `Eager and Inductor draw different random numbers: expected, not a compiler error. ${hint}`
    };
  }
  if (acc.cause === 'random_in_graph') {
    return {
      severity: 'warning',
      headline: 'Compiled output differs from eager; random ops in the graphs may explain it.',
      explanation: `No single diverging node was found, but the graphs hold random ops (${ops}), and eager and Inductor draw different random numbers. ${fix}`,
      hint: `Eager and Inductor draw different random numbers (${ops}). ${hint}`
    };
  }
  const grads = badGradients(acc);
  if (grads.length && acc.outputs.every(o => o.ok)) {
    const named = grads.slice(0, 5).join(', ') + (grads.length > 5 ? ` and ${grads.length - 5} more` : '');
    return { severity: 'error', headline: `Compiled outputs match eager, but the gradients of ${named} differ${d ? `; first divergence in the backward of ${node}` : '.'}` };
  }
  return { severity: 'error', headline: d ? `Compiled output differs from eager; first divergence at ${node}` : 'Compiled output differs from eager.' };
}

/** The parameters (or tensors) whose compiled gradient differs from eager's. */
export function badGradients(acc: Accuracy): string[] {
  return (acc.gradients ?? []).filter(g => !g.ok && g.kind !== 'truncated').map(g => g.path);
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
