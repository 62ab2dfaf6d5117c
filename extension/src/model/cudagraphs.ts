/**
 * The CUDA graphs tab. A document carries CUDA-graph data as `compiles[].cudagraphs`
 * ({partitions, skipped}) or as compilation metrics (`cudagraph_skip_reason`); capture does
 * not produce the former yet, so most documents have none and the tab says so.
 */

import { TcxDocument } from './types';

export interface CudaGraphSection {
  compile: string;
  skipReason: string | null;
  partitions: Array<Record<string, unknown>>;
  skipped: Array<Record<string, unknown>>;
}

export function cudaGraphSections(doc: TcxDocument): CudaGraphSection[] {
  const sections: CudaGraphSection[] = [];
  for (const c of doc.compiles) {
    const reason = c.metrics?.cudagraph_skip_reason;
    const info = c.cudagraphs && typeof c.cudagraphs === 'object' ? c.cudagraphs : null;
    const partitions = Array.isArray(info?.partitions) ? info!.partitions : [];
    const skipped = Array.isArray(info?.skipped) ? info!.skipped : [];
    if (typeof reason === 'string' || partitions.length || skipped.length) {
      sections.push({ compile: c.id, skipReason: typeof reason === 'string' ? reason : null, partitions, skipped });
    }
  }
  return sections;
}

/** Columns of free-form rows, in first-seen key order. */
export function columnsOf(rows: Array<Record<string, unknown>>): string[] {
  const keys: string[] = [];
  for (const r of rows) {
    for (const k of Object.keys(r)) {
      if (!keys.includes(k)) {
        keys.push(k);
      }
    }
  }
  return keys;
}
