/** The Timing tab: eager vs compiled runtime to scale, how far to trust it, and where compile time went. */

import { Axis, fraction, timeAxis } from './axis';
import { duration, num } from './format';
import {
  Compile,
  Phase,
  TcxDocument,
  TimingStats,
  TimingVerdict
} from './types';

export interface RuntimeBar {
  label: 'eager' | 'compiled';
  median: number;
  /** the middle half of the samples; null in documents written before quartiles were kept */
  iqr: [number, number] | null;
  min: number;
  max: number | null;
  samples: number;
  /** the bar's length and the IQR's ends as fractions of the axis */
  length: number;
  iqrAt: [number, number] | null;
  minAt: number;
  /** the max lies past the axis: marked at its end, never drawn to scale */
  maxOffScale: boolean;
  note: string;
}

export interface RuntimeChart {
  axis: Axis;
  bars: RuntimeBar[];
}

function quartiles(s: TimingStats): [number, number] | null {
  return typeof s.q1_ms === 'number' && typeof s.q3_ms === 'number'
    ? [s.q1_ms, s.q3_ms]
    : null;
}

/**
 * Medians as bars from 0 on one time axis, with their IQRs. The axis ends past the largest
 * median and third quartile; the min and max (one slow call can be 50 times the median)
 * never set it.
 */
export function runtimeChart(doc: TcxDocument): RuntimeChart | null {
  const t = doc.timing;
  if (!t) {
    return null;
  }
  const sides: Array<['eager' | 'compiled', TimingStats]> = [
    ['eager', t.eager],
    ['compiled', t.compiled]
  ];
  const extent = Math.max(
    ...sides.map(([, s]) =>
      Math.max(s.median_ms, quartiles(s)?.[1] ?? s.median_ms)
    )
  );
  const axis = timeAxis(extent * 1.05, 'time per call');
  const bars = sides.map(([label, s]): RuntimeBar => {
    const iqr = quartiles(s);
    const max = typeof s.max_ms === 'number' ? s.max_ms : null;
    return {
      label,
      median: s.median_ms,
      iqr,
      min: s.min_ms,
      max,
      samples: s.samples,
      length: fraction(axis, s.median_ms),
      iqrAt: iqr ? [fraction(axis, iqr[0]), fraction(axis, iqr[1])] : null,
      minAt: fraction(axis, s.min_ms),
      maxOffScale: max !== null && max > axis.max,
      note: `${label}: median ${duration(s.median_ms)} · IQR ${iqr ? `${duration(iqr[0])}–${duration(iqr[1])}` : duration(s.iqr_ms)} · min ${duration(s.min_ms)} · max ${duration(max)} · ${s.samples} samples`
    };
  });
  return { axis, bars };
}

/** Why the Timing tab shows no verdict: a document saved before it was stored whole. */
export const OLD_TIMING_NOTE =
  'This document was saved before tcexplore stored its timing verdict, so none is shown here. ' +
  'Read it with tcexplore.load() in Python (which computes it) and display or save it again.';

/**
 * The verdict Python decided (tcexplore/findings/timing.py timing_verdict, kept in the
 * document), or null for a document saved before it was stored with all its lines.
 */
export function timingVerdict(doc: TcxDocument): TimingVerdict | null {
  const v = doc.timing?.verdict;
  return v && typeof v.measurement === 'string' ? v : null;
}

/** The figures beside the chart; the lines Python decided come from the verdict. */
export function timingSummary(doc: TcxDocument): Array<[string, string]> {
  const t = doc.timing;
  const v = timingVerdict(doc);
  if (!t || !v) {
    return [];
  }
  const interval = t.speedup_interval;
  const speedup =
    t.speedup === null
      ? '—'
      : `${num(t.speedup)}× (eager median / compiled median)` +
        (Array.isArray(interval)
          ? `; 95% interval ${num(interval[0])}–${num(interval[1])}×`
          : '');
  return [
    ['device', t.device],
    ['speedup', speedup],
    [v.first_call ?? 'first call', duration(t.compile_s * 1000)],
    ['break-even', v.break_even ?? '—'],
    [
      'samples',
      `eager ${t.eager.samples}, compiled ${t.compiled.samples}` +
        (typeof t.budget_s === 'number'
          ? ` (time budget ${t.budget_s} s per side)`
          : '')
    ],
    ['measurement', v.measurement ?? ''],
    ...(v.machine
      ? [['machine during the samples', v.machine] as [string, string]]
      : [])
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
export function phaseBoxes(
  phases: Phase[],
  maxDepth = 7,
  minFraction = 0.002
): PhaseBox[] {
  const top = phases.filter(
    p => typeof p.start_us === 'number' && typeof p.duration_ms === 'number'
  );
  if (!top.length) {
    return [];
  }
  const begin = Math.min(...top.map(p => p.start_us as number));
  const end = Math.max(
    ...top.map(p => (p.start_us as number) + (p.duration_ms as number) * 1000)
  );
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
      boxes.push({
        name: p.name ?? '?',
        depth,
        start: (p.start_us - begin) / span,
        width,
        durationMs: p.duration_ms
      });
      if (depth + 1 < maxDepth) {
        visit(p.children ?? [], depth + 1);
      }
    }
  };
  visit(top, 0);
  return boxes;
}

export function compileSeconds(phases: Phase[]): number {
  return (
    phases.reduce(
      (s, p) => s + (typeof p.duration_ms === 'number' ? p.duration_ms : 0),
      0
    ) / 1000
  );
}

export interface CompilePick {
  /** the compile's index in the document */
  index: number;
  label: string;
  seconds: number;
}

export interface CompilePicker {
  /** the compiles with phases, the most expensive first */
  picks: CompilePick[];
  totalSeconds: number;
  /** "12.3 s over 12 compiles; the slowest, 9/0, took 1.75 s": as the compile-time finding spells durations */
  total: string;
}

function pickLabel(c: Compile, seconds: number): string {
  return `${c.id} · ${c.frame?.function ?? '?'} — ${duration(seconds * 1000)}${c.dynamo_graph ? '' : ' · no graph'}`;
}

export function compilePicker(doc: TcxDocument): CompilePicker {
  const picks = doc.compiles
    .map((c, index) => ({ c, index, seconds: compileSeconds(c.phases) }))
    .filter(({ c }) => c.phases.length)
    .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
    .map(({ c, index, seconds }) => ({
      index,
      seconds,
      label: pickLabel(c, seconds)
    }));
  const totalSeconds = picks.reduce((sum, p) => sum + p.seconds, 0);
  const slowest = picks[0];
  const total = !slowest
    ? ''
    : picks.length === 1
      ? `${duration(totalSeconds * 1000)} in one compile`
      : `${duration(totalSeconds * 1000)} over ${picks.length} compiles; the slowest, ${doc.compiles[slowest.index].id}, took ${duration(slowest.seconds * 1000)}`;
  return { picks, totalSeconds, total };
}
