/** Small text formatting shared by the view-models. */

import { Location } from './types';

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function ms(value: number | null | undefined): string {
  if (typeof value !== 'number' || !isFinite(value)) {
    return '—';
  }
  if (value >= 1000) {
    return `${(value / 1000).toFixed(2)} s`;
  }
  return value >= 10 ? `${value.toFixed(1)} ms` : `${value.toPrecision(3)} ms`;
}

export function num(value: number | null | undefined, digits = 3): string {
  return typeof value === 'number' && isFinite(value) ? value.toPrecision(digits) : '—';
}

export function baseName(file: string | null | undefined): string {
  if (!file) {
    return '?';
  }
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] || file;
}

/** "file.py:12" (base name) of a location. */
export function where(loc: Location | null | undefined): string {
  if (!loc) {
    return '';
  }
  const line = typeof loc.line === 'number' ? `:${loc.line}` : '';
  return `${baseName(loc.file)}${line}`;
}

export function firstLine(text: string | null | undefined): string {
  return String(text ?? '').split('\n')[0];
}
