/** The Timing tab: eager vs compiled runtime to scale, how far to trust it, and where compile time went. */

import { Axis, duration, fraction, timeAxis } from './axis';
import { ms, num } from './format';
import { Compile, MachineState, Phase, TcxDocument, Timing, TimingStats } from './types';

/** The share of its median a side's IQR may reach before the measurement is noisy (measure/timing.py). */
export const NOISY_IQR_FRACTION = 0.1;

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
  return typeof s.q1_ms === 'number' && typeof s.q3_ms === 'number' ? [s.q1_ms, s.q3_ms] : null;
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
  const sides: Array<['eager' | 'compiled', TimingStats]> = [['eager', t.eager], ['compiled', t.compiled]];
  const extent = Math.max(...sides.map(([, s]) => Math.max(s.median_ms, quartiles(s)?.[1] ?? s.median_ms)));
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

function sideNoisy(s: TimingStats): boolean {
  return typeof s.noisy === 'boolean' ? s.noisy : s.iqr_ms > NOISY_IQR_FRACTION * s.median_ms;
}

/** Whether the speedup's interval holds 1: the measurement cannot tell faster from slower. */
export function speedupUncertain(t: Timing): boolean {
  const interval = t.speedup_interval;
  return Array.isArray(interval) && interval[0] <= 1 && interval[1] >= 1;
}

function times(speedup: number): string {
  return speedup >= 1 ? `${num(speedup)}× faster` : `${num(1 / speedup)}× slower`;
}

export interface TimingVerdict {
  /** never 'ok' for a noisy or undecided measurement */
  severity: 'ok' | 'warning';
  /** "Compiled is 1.58× faster than eager: 10.2 ms vs 16.1 ms per call" */
  headline: string;
  /** which side is noisy and how much, or null */
  noise: string | null;
  /** why the machine was busy during the samples, or null */
  busy: string | null;
  /** what to do for a measurement to trust, or null */
  advice: string | null;
}

/**
 * The verdict Python decided when it measured (render/measurements.py timing_verdict, kept
 * in the document); documents written before it get the same rules, which knew no machine.
 */
export function timingVerdict(t: Timing): TimingVerdict {
  const v = t.verdict;
  if (v) {
    return { severity: v.severity, headline: v.headline, noise: v.noise ?? null, busy: v.busy ?? null, advice: v.advice ?? null };
  }
  return legacyVerdict(t);
}

function legacyVerdict(t: Timing): TimingVerdict {
  const perCall = `${duration(t.compiled.median_ms)} vs ${duration(t.eager.median_ms)} per call`;
  const uncertain = speedupUncertain(t);
  let headline: string;
  if (t.speedup === null) {
    headline = `Speedup unknown: compiled ${duration(t.compiled.median_ms)} vs eager ${duration(t.eager.median_ms)} per call`;
  } else if (uncertain) {
    const [low, high] = t.speedup_interval as [number, number];
    headline = `No clear difference between compiled and eager: ${times(t.speedup)} by the medians (${perCall}), but the speedup's 95% interval, ${num(low)}–${num(high)}×, holds 1×`;
  } else {
    headline = `Compiled is ${times(t.speedup)} than eager: ${perCall}`;
  }
  const noisy = (['eager', 'compiled'] as const).filter(side => sideNoisy(t[side]));
  const noise = noisy.length
    ? 'Noisy: ' + noisy.map((side, i) => {
      const s = t[side];
      const share = `${Math.round((100 * s.iqr_ms) / s.median_ms)}%`;
      return i ? `${side}'s ${duration(s.iqr_ms)} on ${duration(s.median_ms)} (${share})` : `${side}'s IQR is ${duration(s.iqr_ms)} on a ${duration(s.median_ms)} median (${share})`;
    }).join(', ') + '.'
    : null;
  const budget = typeof t.budget_s === 'number' ? `this run: ${t.budget_s} s per side; ` : '';
  const advice = noise || uncertain
    ? `For a measurement to trust: a longer time budget (${budget}time_budget_s= in explore() and compare(), --time-budget in %%tcompile), a quieter machine, fewer other processes.`
    : null;
  const slower = t.speedup !== null && t.speedup < 1;
  return { severity: t.speedup === null || uncertain || slower || noise ? 'warning' : 'ok', headline, noise, busy: null, advice };
}

export function timingSummary(doc: TcxDocument): Array<[string, string]> {
  const t = doc.timing;
  if (!t) {
    return [];
  }
  const interval = t.speedup_interval;
  const speedup = t.speedup === null ? '—' : `${num(t.speedup)}× (eager median / compiled median)` + (Array.isArray(interval) ? `; 95% interval ${num(interval[0])}–${num(interval[1])}×` : '');
  const noisy = sideNoisy(t.eager) || sideNoisy(t.compiled);
  return [
    ['device', t.device],
    ['speedup', speedup],
    [doc.summary?.graphs !== 0 ? 'first call (compile + run)' : 'first call (nothing compiled)', ms(t.compile_s * 1000)],
    ['break-even', t.break_even_calls === null ? 'never (compiled is not faster)' : `${Math.ceil(t.break_even_calls)} calls`],
    ['samples', `eager ${t.eager.samples}, compiled ${t.compiled.samples}` + (typeof t.budget_s === 'number' ? ` (time budget ${t.budget_s} s per side)` : '')],
    ['measurement', noisy ? `noisy (an IQR over ${100 * NOISY_IQR_FRACTION}% of its median)` : `steady (both IQRs within ${100 * NOISY_IQR_FRACTION}% of their medians)`],
    ...(t.machine ? [['machine during the samples', machineLine(t.machine)] as [string, string]] : [])
  ];
}

function cores(value: number | null): string {
  return typeof value === 'number' ? value.toFixed(1) : '?';
}

/** The figures behind `busy`, in one line (as render/measurements.py machine_line). */
export function machineLine(m: MachineState): string {
  const parts = [`${cores(m.process_cores)} cores used by this process`, `${cores(m.others_cores)} by others, of ${m.cores}`, `torch threads ${m.torch_threads}`];
  if (typeof m.load_average === 'number') {
    parts.push(`load average ${m.load_average.toFixed(2)}`);
  }
  if (typeof m.throttled_share === 'number') {
    parts.push(`throttled ${Math.round(100 * m.throttled_share)}%`);
  }
  if (m.gpu) {
    const others = m.gpu.others;
    parts.push(others ? `GPU shared with ${others} other process(es)` : 'no other process on the GPU');
  }
  return `${m.busy ? 'busy' : 'quiet'}: ${parts.join(', ')} over ${num(m.window_s)} s`;
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
  /** "12.3 s over 12 compiles; the slowest, 9/0, took 1.75 s" */
  total: string;
}

function pickLabel(c: Compile, seconds: number): string {
  return `${c.id} · ${c.frame?.function ?? '?'} — ${seconds.toFixed(2)} s${c.dynamo_graph ? '' : ' · no graph'}`;
}

export function compilePicker(doc: TcxDocument): CompilePicker {
  const picks = doc.compiles
    .map((c, index) => ({ c, index, seconds: compileSeconds(c.phases) }))
    .filter(({ c }) => c.phases.length)
    .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
    .map(({ c, index, seconds }) => ({ index, seconds, label: pickLabel(c, seconds) }));
  const totalSeconds = picks.reduce((sum, p) => sum + p.seconds, 0);
  const slowest = picks[0];
  const total = !slowest
    ? ''
    : picks.length === 1
      ? `${totalSeconds.toFixed(2)} s in one compile`
      : `${totalSeconds.toFixed(2)} s over ${picks.length} compiles; the slowest, ${doc.compiles[slowest.index].id}, took ${slowest.seconds.toFixed(2)} s`;
  return { picks, totalSeconds, total };
}
