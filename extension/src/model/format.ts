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

/** file name -> how the views name it: a notebook cell's temporary file is "cell [5]". */
export type SourceLabels = Record<string, string>;

/** The document's `explore.source_labels` (only string labels). */
export function sourceLabels(doc: { explore?: { source_labels?: Record<string, string> } | null }): SourceLabels {
  const labels: SourceLabels = {};
  for (const [file, label] of Object.entries(doc.explore?.source_labels ?? {})) {
    if (typeof label === 'string') {
      labels[file] = label;
    }
  }
  return labels;
}

/** "cell [5], line 3" in a labelled file (a notebook cell), else "file.py:12" (base name). */
export function where(loc: Location | null | undefined, labels: SourceLabels): string {
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

/**
 * Labelled file names in a free text (torch's messages) as their labels, as the HTML report
 * does: also where torch cut the name's start (`mp/ipykernel_1/123.py:3`).
 */
export function relabel(text: string, labels: SourceLabels): string {
  let out = text;
  for (const [file, label] of Object.entries(labels)) {
    const base = file.slice(file.lastIndexOf('/') + 1);
    if (!base || !out.includes(base)) {
      continue;
    }
    const named = new RegExp(`([\\w./-]*${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})(?::(\\d+))?`, 'g');
    out = out.replace(named, (whole: string, path: string, line?: string) =>
      !file.endsWith(path) ? whole : line ? `${label}, line ${line}` : label);
  }
  return out;
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
