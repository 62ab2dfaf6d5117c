/** The sidebar's view of open notebooks: which cells hold a tcexplore output. */

import { plural } from './format';
import { MIME_TYPE } from './types';

export interface OutputLike {
  data?: Record<string, unknown> | null;
}

export interface ExplorationEntry {
  cell: number;
  output: number;
  label: string;
  detail: string;
}

function label(data: unknown): { label: string; detail: string } {
  const doc = (data && typeof data === 'object' ? data : {}) as Record<string, any>;
  if (doc.schema !== 'tcexplore/1') {
    return { label: 'tcexplore output', detail: `schema ${String(doc.schema ?? '?')}` };
  }
  if (doc.kind === 'ranks') {
    const ranks = Array.isArray(doc.ranks) ? doc.ranks.length : 0;
    const found = Array.isArray(doc.divergence) ? doc.divergence.length : 0;
    return { label: `${plural(ranks, 'rank')} side by side`, detail: found ? plural(found, 'divergence') : 'no divergence' };
  }
  if (doc.kind === 'comparison') {
    const rows: any[] = Array.isArray(doc.rows) ? doc.rows : [];
    const failed = rows.filter(r => r?.status === 'error').length;
    return { label: `${plural(rows.length, 'configuration')} compared`, detail: failed ? `${failed} failed` : 'all ran' };
  }
  const s = doc.summary ?? {};
  const frames = Array.isArray(doc.compiles)
    ? [...new Set(doc.compiles.map((c: any) => c?.frame?.function).filter((f: unknown) => typeof f === 'string'))]
    : [];
  const parts = [plural(Number(s.graphs ?? 0), 'graph'), plural(Number(s.graph_breaks ?? 0), 'break'), plural(Number(s.recompiles ?? 0), 'recompile')];
  const speedup = doc.timing?.speedup;
  if (typeof speedup === 'number') {
    parts.push(`${speedup.toPrecision(3)}×`);
  }
  if (doc.accuracy && doc.accuracy.ok === false) {
    parts.push('MISMATCH');
  }
  return { label: frames.length ? (frames as string[]).slice(0, 3).join(', ') : 'no compiles', detail: parts.join(' · ') };
}

export function findExplorations(cells: OutputLike[][]): ExplorationEntry[] {
  const found: ExplorationEntry[] = [];
  cells.forEach((outputs, cell) =>
    outputs.forEach((out, output) => {
      const data = out.data?.[MIME_TYPE];
      if (data !== undefined) {
        found.push({ cell, output, ...label(data) });
      }
    })
  );
  return found;
}
