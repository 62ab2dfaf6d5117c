/**
 * A linear axis from 0 for bars drawn to scale: a round far end, round ticks and a title
 * with the unit. Values stay in the data's unit; `fraction` places one on the axis.
 */

import { sig3, tick } from './format';

export interface Tick {
  value: number;
  label: string;
}

export interface Axis {
  /** the value at the far end (the origin is 0) */
  max: number;
  ticks: Tick[];
  /** what the axis measures, with its unit */
  title: string;
  /** a value written in the axis's unit ("13.8 µs") */
  format: (value: number) => string;
}

const STEPS = [1, 2, 2.5, 5, 10];

/** The smallest round step (1, 2, 2.5 or 5 × 10^k) giving at most `count` intervals. */
export function niceStep(extent: number, count = 5): number {
  const raw = extent / count;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  return (STEPS.find(s => s * power >= raw * (1 - 1e-9)) ?? 10) * power;
}

/** An axis covering 0..extent; `unit` follows values written with `format`. */
export function linearAxis(
  extent: number,
  title: string,
  unit = '',
  count = 5
): Axis {
  const safe = extent > 0 && isFinite(extent) ? extent : 1;
  const step = niceStep(safe, count);
  const intervals = Math.max(1, Math.ceil(safe / step - 1e-9));
  const ticks = Array.from({ length: intervals + 1 }, (_, i) => ({
    value: i * step,
    label: tick(i * step)
  }));
  return {
    max: intervals * step,
    ticks,
    title,
    format: v => `${sig3(v)}${unit}`
  };
}

/** A time axis for values in milliseconds, its ticks in µs, ms or s as the extent suits. */
export function timeAxis(extentMs: number, what: string): Axis {
  const [unit, factor] =
    extentMs >= 2000 ? ['s', 1e-3] : extentMs < 0.5 ? ['µs', 1e3] : ['ms', 1];
  const axis = linearAxis(extentMs * factor, `${what} (${unit})`);
  return {
    ...axis,
    max: axis.max / factor,
    ticks: axis.ticks.map(t => ({ value: t.value / factor, label: t.label })),
    format: v => `${sig3(v * factor)} ${unit}`
  };
}

/** Where `value` falls on the axis, as a fraction of its length (over 1: past the end). */
export function fraction(axis: Axis, value: number): number {
  return value / axis.max;
}

/** One bar of an axis chart (view/charts.ts); positions are fractions of the axis. */
export interface AxisBar {
  label: string;
  /** a second, smaller line under the label (e.g. the sample count) */
  sub?: string;
  /** null: no bar (a failed configuration); `value` says why */
  length: number | null;
  /** a whisker with caps (an IQR, an interval); cut at the axis end */
  band?: [number, number] | null;
  /** a thin line (min to max), cut at the axis end */
  range?: [number, number] | null;
  /** said past the axis end when the range or band goes beyond it (an outlier max) */
  offScale?: string | null;
  value: string;
  className: string;
  title: string;
  highlight?: boolean;
}
