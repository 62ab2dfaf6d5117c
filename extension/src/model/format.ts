/**
 * Numbers and words as the views write them: three significant digits, durations, bytes,
 * rates, shares, axis ticks, plurals; and file names as the views name them. The one place
 * the extension spells them, alike tcexplore/common/formatting.py: both are pinned to
 * tests/fixtures/formatting/expected.json (input -> text).
 *
 * The rule a reader meets everywhere: three significant digits with their trailing zeros
 * ("1.50 ms", "0.930"), never an exponent ("1230", "4.56 G" for 4.56e9), a unit chosen after
 * rounding (999.96 µs is "1.00 ms"), halves rounded away from zero (toFixed), and "—" for a
 * value that is not a finite number.
 */

import { Location } from './types';

export const NONE = '—';
const DURATION: Array<[number, string]> = [
  [1e-3, 'µs'],
  [1, 'ms'],
  [1e3, 's']
]; // in milliseconds
const BYTES: Array<[number, string]> = [
  [1e3, 'kB'],
  [1e6, 'MB'],
  [1e9, 'GB']
];
const LARGE: Array<[number, string]> = [
  [1e6, 'M'],
  [1e9, 'G'],
  [1e12, 'T'],
  [1e15, 'P']
];

function finite(value: unknown): value is number {
  return typeof value === 'number' && isFinite(value);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Three significant digits, trailing zeros kept, no exponent: 1235, 13.8, 0.930, 0.0000123; 0 is "0". */
export function sig3(value: number): string {
  if (value === 0) {
    return '0';
  }
  const decimals = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  const text = value.toFixed(decimals);
  // 9.996 rounds up to 10.00
  return decimals && Math.abs(Number(text)) >= Math.pow(10, 3 - decimals)
    ? value.toFixed(decimals - 1)
    : text;
}

/** `value` in the first of `units` (each 1000 of the one before) where it stays under 1000 once rounded. */
function scaled(value: number, units: Array<[number, string]>): string {
  let [size, unit] = units[0];
  for (const [bigger, name] of units.slice(1)) {
    if (Math.abs(Number(sig3(value / size))) < 1000) {
      break;
    }
    [size, unit] = [bigger, name];
  }
  return `${sig3(value / size)} ${unit}`;
}

/** A duration given in milliseconds, in µs, ms or s: "13.8 µs", "10.2 ms", "1.75 s". */
export function duration(valueMs: number | null | undefined): string {
  return finite(valueMs) ? scaled(valueMs, DURATION) : NONE;
}

/** A duration given in microseconds, as `duration` writes it. */
export function microseconds(value: number | null | undefined): string {
  return finite(value) ? duration(value / 1e3) : NONE;
}

/** A size in bytes: "512 B", "1.50 kB", "16.8 MB", "2.00 GB" (powers of 1000). */
export function formatBytes(value: number | null | undefined): string {
  if (!finite(value)) {
    return NONE;
  }
  const text = value.toFixed(0);
  return Math.abs(Number(text)) < 1000 ? `${text} B` : scaled(value, BYTES);
}

/** A plain number: three significant digits; from a million on, with M, G, T or P. */
export function num(value: number | null | undefined): string {
  if (!finite(value)) {
    return NONE;
  }
  const text = sig3(value);
  return Math.abs(Number(text)) < 1e6 ? text : scaled(value, LARGE);
}

/** A count (launches, FLOPs): a whole one in all its digits ("3", "4096"), from a million on as `num` writes it; an average that is not whole, in three digits. */
export function count(value: number | null | undefined): string {
  return finite(value) && Number.isInteger(value) && Math.abs(value) < 1e6
    ? String(value)
    : num(value);
}

/** A number and its unit ("3350 GB/s"), or "—". */
export function rate(value: number | null | undefined, unit: string): string {
  return finite(value) ? `${num(value)} ${unit}` : NONE;
}

/** A fraction as a percentage with one decimal: 0.4567 -> "45.7%". */
export function percent(value: number | null | undefined): string {
  return finite(value) ? `${(value * 100).toFixed(1)}%` : NONE;
}

/** An axis tick: up to six significant digits, no trailing zeros, no exponent. */
export function tick(value: number): string {
  const rounded = Number(value.toPrecision(6));
  const text = String(rounded);
  if (!text.includes('e')) {
    return text;
  }
  // String() writes an exponent below 1e-6: spell the digits out
  return rounded
    .toFixed(Math.min(100, 5 - Math.floor(Math.log10(Math.abs(rounded)))))
    .replace(/\.?0+$/, '');
}

export function baseName(file: string | null | undefined): string {
  if (!file) {
    return '?';
  }
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] || file;
}

/** file name -> how the views name it: a notebook cell's temporary file is "cell [5]". */
export type SourceLabels = Record<string, string>;

/** The document's `explore.source_labels` (only string labels). */
export function sourceLabels(doc: { explore?: unknown }): SourceLabels {
  const labels: SourceLabels = {};
  const explore =
    doc.explore && typeof doc.explore === 'object'
      ? (doc.explore as { source_labels?: unknown })
      : null;
  const given = explore?.source_labels;
  for (const [file, label] of Object.entries(
    given && typeof given === 'object' && !Array.isArray(given) ? given : {}
  )) {
    if (typeof label === 'string') {
      labels[file] = label;
    }
  }
  return labels;
}

/** "cell [5], line 3" in a labelled file (a notebook cell), else "file.py:12" (base name). */
export function where(
  loc: Location | null | undefined,
  labels: SourceLabels
): string {
  if (!loc) {
    return '';
  }
  const label = loc.file ? labels[loc.file] : undefined;
  if (label) {
    return typeof loc.line === 'number' ? `${label}, line ${loc.line}` : label;
  }
  const line = typeof loc.line === 'number' ? `:${loc.line}` : '';
  return `${baseName(loc.file)}${line}`;
}

/** A location's tooltip: the full path and line, then its code. */
export function whereTitle(loc: Location | null | undefined): string {
  if (!loc || !loc.file) {
    return '';
  }
  const line = typeof loc.line === 'number' ? `:${loc.line}` : '';
  return `${loc.file}${line}${loc.code ? `\n${loc.code}` : ''}`;
}

export function firstLine(text: string | null | undefined): string {
  return String(text ?? '').split('\n')[0];
}
