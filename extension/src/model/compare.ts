/** The Compare tab: the configuration grid of tcexplore.compare(). */

import { num } from './format';
import { ComparisonRow, TcxDocument } from './types';

export const COLUMNS: Array<[keyof ComparisonRow, string]> = [
  ['backend', 'backend'], ['mode', 'mode'], ['dynamic', 'dynamic'], ['status', 'status'],
  ['compile_s', 'compile (s)'], ['median_ms', 'runtime (ms)'], ['speedup', 'speedup'],
  ['max_abs_err', 'max abs err'], ['graphs', 'graphs'], ['graph_breaks', 'breaks'],
  ['kernels', 'kernels'], ['error', 'error']
];

export function comparisonRows(doc: TcxDocument): ComparisonRow[] {
  const rows = doc.comparison?.rows;
  return Array.isArray(rows) ? rows : [];
}

export function cell(row: ComparisonRow, key: keyof ComparisonRow): string {
  const value = row[key];
  if (value === null || value === undefined) {
    return key === 'mode' ? 'default' : '';
  }
  if (typeof value === 'number') {
    return Number.isInteger(value) ? String(value) : num(value);
  }
  return typeof value === 'object' ? '' : String(value);
}

/** The index of the fastest row that matched eager, for the reader's eye. */
export function bestRow(rows: ComparisonRow[]): number {
  let best = -1;
  rows.forEach((r, i) => {
    if (r.status === 'ok' && typeof r.speedup === 'number' && (best < 0 || r.speedup > (rows[best].speedup as number))) {
      best = i;
    }
  });
  return best;
}
