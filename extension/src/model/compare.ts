/**
 * The grid of tcexplore.compare(): a comparison output ("kind": "comparison", its rows
 * carrying their documents) or the `comparison` section of one row's document (the grid
 * that row belongs to). Speedup and compile time per configuration, drawn to scale. The
 * fastest row, the row to pick, the headline and each speedup's words are Python's
 * (tcexplore/findings/comparison.py, stored with the grid); a grid saved before they were
 * stored says so.
 */

import { Axis, AxisBar, fraction, linearAxis } from './axis';
import { formatBytes, num } from './format';
import { ComparisonRow, SCHEMA, TcxDocument } from './types';

/** The table's columns after the configuration's label. */
export const COLUMNS: Array<[keyof ComparisonRow, string]> = [
  ['status', 'status'],
  ['compile_s', 'compile (s)'],
  ['median_ms', 'runtime (ms)'],
  ['speedup', 'speedup'],
  ['max_abs_err', 'max abs err'],
  ['peak_memory_bytes', 'peak memory'],
  ['graphs', 'graphs'],
  ['graph_breaks', 'breaks'],
  ['kernels', 'kernels'],
  ['error', 'error']
];

/** Whether a profiled default row's advice held in the grid (compare(..., profile=True)). */
export interface AdviceCheck {
  verdict: string;
  mode: string;
  held: boolean;
  ratio: number;
  text: string;
}

export interface Grid {
  rows: ComparisonRow[];
  /** the row whose explorer shows this grid, or null for the grid on its own */
  current: number | null;
  advice?: AdviceCheck | null;
  /** what the grid says under its headline (how compile times were taken, rows left out) */
  notes?: string[];
  /** what the grid says first; null: saved before it was stored (OLD_GRID_NOTE) */
  headline: string | null;
  /** the fastest row that matches eager, or null */
  best: number | null;
  /** the row to mark as the one to pick (green), or null */
  winning: number | null;
}

/** Why a grid has no headline: saved before its decisions were stored. */
export const OLD_GRID_NOTE =
  'This grid was saved before tcexplore stored its decisions (the fastest row, the headline): run compare() again to see them.';

function decisions(
  section: Record<string, unknown>
): Pick<Grid, 'headline' | 'best' | 'winning'> {
  const index = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    headline: typeof section.headline === 'string' ? section.headline : null,
    best: index(section.best_row),
    winning: index(section.winning_row)
  };
}

function adviceOf(value: unknown): AdviceCheck | null {
  const check = object(value);
  return typeof check.text === 'string' && typeof check.held === 'boolean'
    ? (check as unknown as AdviceCheck)
    : null;
}

function object(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function rowsOf(value: unknown): ComparisonRow[] {
  return Array.isArray(value)
    ? value.filter(r => r && typeof r === 'object')
    : [];
}

export function isComparisonDocument(data: unknown): boolean {
  const raw = object(data);
  return raw.schema === SCHEMA && raw.kind === 'comparison';
}

/** The grid of a comparison output. */
export function comparisonGrid(data: unknown): Grid {
  const notes = object(data).notes;
  return {
    rows: rowsOf(object(data).rows),
    current: null,
    advice: adviceOf(object(data).advice_check),
    notes: Array.isArray(notes)
      ? notes.filter((n): n is string => typeof n === 'string')
      : [],
    ...decisions(object(data))
  };
}

/** The grid a row's document belongs to (its `comparison` section), that row current. */
export function documentGrid(doc: TcxDocument): Grid {
  const section = object(doc.comparison);
  const notes = section.notes;
  return {
    rows: rowsOf(section.rows),
    current: typeof section.row === 'number' ? section.row : null,
    advice: adviceOf(section.advice_check),
    notes: Array.isArray(notes)
      ? notes.filter((n): n is string => typeof n === 'string')
      : [],
    ...decisions(section)
  };
}

export function comparisonRows(doc: TcxDocument): ComparisonRow[] {
  return documentGrid(doc).rows;
}

export function cell(row: ComparisonRow, key: keyof ComparisonRow): string {
  const value = row[key];
  if (value === null || value === undefined) {
    return key === 'mode' ? 'default' : '';
  }
  if (key === 'peak_memory_bytes' && typeof value === 'number') {
    return formatBytes(value);
  }
  if (typeof value === 'number') {
    return Number.isInteger(value) ? String(value) : num(value);
  }
  return typeof value === 'object' ? '' : String(value);
}

export function rowLabel(r: ComparisonRow): string {
  return typeof r.label === 'string'
    ? r.label
    : `${cell(r, 'backend')} / ${cell(r, 'mode')} / dynamic=${cell(r, 'dynamic')}`;
}

export interface GridChart {
  axis: Axis;
  bars: AxisBar[];
  /** a value marked across the chart (1× = eager) */
  reference?: { value: number; label: string };
}

function missing(
  r: ComparisonRow,
  otherwise: string
): Pick<AxisBar, 'length' | 'value'> {
  return { length: null, value: r.status === 'error' ? 'failed' : otherwise };
}

/** Speedup over eager per configuration, from 0, with its 95% interval and 1× marked. */
export function speedupChart(grid: Grid): GridChart {
  const speedups = grid.rows
    .map(r => r.speedup)
    .filter((s): s is number => typeof s === 'number');
  const axis = linearAxis(
    Math.max(1, ...speedups) * 1.1,
    'speedup over eager (×)',
    '×'
  );
  const bars = grid.rows.map((r, i): AxisBar => {
    const label = rowLabel(r);
    const base = {
      label,
      className:
        r.status === 'mismatch' || r.status === 'error'
          ? 'tcx-bar-mismatch'
          : 'tcx-bar-config',
      highlight: i === grid.current
    };
    const words = r.speedup_words ?? { text: '', title: label };
    if (typeof r.speedup !== 'number') {
      return { ...base, length: null, value: words.text, title: words.title };
    }
    const interval = Array.isArray(r.speedup_interval)
      ? r.speedup_interval
      : null;
    return {
      ...base,
      length: fraction(axis, r.speedup),
      band: interval
        ? [fraction(axis, interval[0]), fraction(axis, interval[1])]
        : null,
      offScale:
        interval && interval[1] > axis.max ? `to ${num(interval[1])}×` : null,
      value: words.text,
      title: words.title
    };
  });
  return { axis, bars, reference: { value: 1, label: '1× = eager' } };
}

/** The first call (compile + one run) per configuration, from 0. */
export function compileChart(grid: Grid): GridChart {
  const seconds = grid.rows
    .map(r => r.compile_s)
    .filter((s): s is number => typeof s === 'number');
  const axis = linearAxis(
    Math.max(0, ...seconds) * 1.1,
    'first call: compile + one run (s)',
    ' s'
  );
  const bars = grid.rows.map((r, i): AxisBar => {
    const label = rowLabel(r);
    const base = {
      label,
      className: 'tcx-bar-compile',
      highlight: i === grid.current
    };
    return typeof r.compile_s === 'number'
      ? {
          ...base,
          length: fraction(axis, r.compile_s),
          value: axis.format(r.compile_s),
          title: `${label}: first call ${num(r.compile_s)} s (compile + one run)`
        }
      : { ...base, ...missing(r, '—'), title: r.error ?? label };
  });
  return { axis, bars };
}
