/** The sidebar's view of open notebooks: which cells hold a tcexplore output. */

import { plural } from './format';
import { MIME_TYPE } from './types';
import { Inflate, inflateGzip, unpack } from './unpack';

export interface OutputLike {
  data?: Record<string, unknown> | null;
}

/** A code cell as the sidebar reads it: its outputs and its execution count (null: not run). */
export interface CellLike {
  executionCount: number | null;
  outputs: OutputLike[];
}

export interface ExplorationEntry {
  /** the cell's position in the notebook (to scroll to it) */
  cell: number;
  /** the cell's execution count, as Jupyter numbers it: [3] */
  execution: number | null;
  output: number;
  label: string;
  detail: string;
}

/** The cell's prompt as Jupyter shows it: "[3]", or "[ ]" for a cell not run. */
export function cellPrompt(entry: ExplorationEntry): string {
  return entry.execution === null ? '[ ]' : `[${entry.execution}]`;
}

/** A document's own numbers, where it has them: compiles, breaks, recompiles, speed, accuracy. */
export function labelOf(data: unknown): { label: string; detail: string } {
  const doc = (data && typeof data === 'object' ? data : {}) as Record<
    string,
    any
  >;
  if (doc.schema !== 'tcexplore/1') {
    return {
      label: 'tcexplore output',
      detail: `schema ${String(doc.schema ?? '?')}`
    };
  }
  if (doc.kind === 'ranks') {
    const ranks = Array.isArray(doc.ranks) ? doc.ranks.length : 0;
    const found = Array.isArray(doc.divergence) ? doc.divergence.length : 0;
    return {
      label: `${plural(ranks, 'rank')} side by side`,
      detail: found ? plural(found, 'divergence') : 'no divergence'
    };
  }
  if (doc.kind === 'comparison') {
    const rows: any[] = Array.isArray(doc.rows) ? doc.rows : [];
    const failed = rows.filter(r => r?.status === 'error').length;
    return {
      label: `${plural(rows.length, 'configuration')} compared`,
      detail: failed ? `${failed} failed` : 'all ran'
    };
  }
  const s = doc.summary ?? {};
  const compiles: any[] = Array.isArray(doc.compiles) ? doc.compiles : [];
  const named = compiles
    .map(c => c?.frame?.function)
    .filter((f: unknown): f is string => typeof f === 'string');
  // Resume functions are Dynamo's continuations after a break: the user's own names first.
  const frames = [
    ...new Set([
      ...named.filter(f => !f.startsWith('torch_dynamo_resume_in_')),
      ...named
    ])
  ];
  const parts = [
    plural(compiles.length, 'compile'),
    plural(Number(s.graph_breaks ?? 0), 'break'),
    plural(Number(s.recompiles ?? 0), 'recompile')
  ];
  const speedup = doc.timing?.speedup;
  if (typeof speedup === 'number' && speedup > 0) {
    parts.push(
      speedup >= 1
        ? `${speedup.toPrecision(3)}× faster`
        : `${(1 / speedup).toPrecision(3)}× slower`
    );
  }
  if (typeof doc.accuracy?.ok === 'boolean') {
    parts.push(doc.accuracy.ok ? 'outputs match' : 'outputs DIFFER');
  }
  const label = frames.length
    ? frames.slice(0, 3).join(', ') + (frames.length > 3 ? ', …' : '')
    : compiles.length
      ? 'compiles'
      : 'no compiles';
  return { label, detail: parts.join(' · ') };
}

/** Labels of packed documents, by document id: inflating is done once per output. */
const packedLabels = new Map<
  string,
  Promise<{ label: string; detail: string }>
>();

async function labelOfOutput(
  data: unknown,
  inflate: Inflate
): Promise<{ label: string; detail: string }> {
  const doc = data as Record<string, unknown> | null;
  if (!doc || typeof doc !== 'object' || !doc.packed) {
    return labelOf(data);
  }
  const key = typeof doc.id === 'string' ? doc.id : '';
  let found = key ? packedLabels.get(key) : undefined;
  if (!found) {
    found = unpack(data, inflate).then(labelOf, error => ({
      label: 'tcexplore output',
      detail: `unreadable: ${String(error)}`
    }));
    if (key) {
      packedLabels.set(key, found);
    }
  }
  return found;
}

/** Every tcexplore output of a notebook's cells, labelled from its document (big ones unpacked). */
export async function findExplorations(
  cells: CellLike[],
  inflate: Inflate = inflateGzip
): Promise<ExplorationEntry[]> {
  const found: Array<Promise<ExplorationEntry>> = [];
  cells.forEach(({ executionCount, outputs }, cell) =>
    outputs.forEach((out, output) => {
      const data = out.data?.[MIME_TYPE];
      if (data !== undefined) {
        found.push(
          labelOfOutput(data, inflate).then(label => ({
            cell,
            execution: executionCount,
            output,
            ...label
          }))
        );
      }
    })
  );
  return Promise.all(found);
}
