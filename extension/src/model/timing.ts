/** The Timing tab: eager vs compiled runtime, and where compile time went. */

import { ms, num } from './format';
import { Phase, TcxDocument, TimingStats } from './types';

export interface Bar {
  label: string;
  median: number;
  low: number;
  high: number;
  note: string;
}

export function runtimeBars(doc: TcxDocument): Bar[] {
  const t = doc.timing;
  if (!t) {
    return [];
  }
  const bar = (label: string, s: TimingStats): Bar => ({
    label,
    median: s.median_ms,
    low: s.min_ms,
    high: typeof s.max_ms === 'number' ? s.max_ms : s.median_ms + s.iqr_ms,
    note: `median ${ms(s.median_ms)} · IQR ${ms(s.iqr_ms)} · ${s.samples} samples`
  });
  return [bar('eager', t.eager), bar('compiled', t.compiled)];
}

export function timingSummary(doc: TcxDocument): Array<[string, string]> {
  const t = doc.timing;
  if (!t) {
    return [];
  }
  return [
    ['device', t.device],
    ['speedup', t.speedup === null ? '—' : `${num(t.speedup)}×`],
    ['first call (compile + run)', ms(t.compile_s * 1000)],
    ['break-even', t.break_even_calls === null ? 'never (compiled is not faster)' : `${Math.ceil(t.break_even_calls)} calls`],
    ['measurement', t.noisy ? 'noisy (IQR over 10% of the median)' : 'steady']
  ];
}

export interface PhaseBox {
  name: string;
  depth: number;
  /** start and width as fractions of the compile's whole span */
  start: number;
  width: number;
  durationMs: number;
}

/** The phase tree of one compile as icicle boxes; boxes under `minFraction` are left out. */
export function phaseBoxes(phases: Phase[], maxDepth = 7, minFraction = 0.002): PhaseBox[] {
  const top = phases.filter(p => typeof p.start_us === 'number' && typeof p.duration_ms === 'number');
  if (!top.length) {
    return [];
  }
  const begin = Math.min(...top.map(p => p.start_us as number));
  const end = Math.max(...top.map(p => (p.start_us as number) + (p.duration_ms as number) * 1000));
  const span = Math.max(end - begin, 1);
  const boxes: PhaseBox[] = [];
  const visit = (list: Phase[], depth: number) => {
    for (const p of list) {
      if (typeof p.start_us !== 'number' || typeof p.duration_ms !== 'number') {
        continue;
      }
      const width = (p.duration_ms * 1000) / span;
      if (width < minFraction) {
        continue;
      }
      boxes.push({ name: p.name ?? '?', depth, start: (p.start_us - begin) / span, width, durationMs: p.duration_ms });
      if (depth + 1 < maxDepth) {
        visit(p.children ?? [], depth + 1);
      }
    }
  };
  visit(top, 0);
  return boxes;
}

export function compileSeconds(phases: Phase[]): number {
  return phases.reduce((s, p) => s + (typeof p.duration_ms === 'number' ? p.duration_ms : 0), 0) / 1000;
}
