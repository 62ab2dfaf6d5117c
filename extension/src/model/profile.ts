/**
 * The Profile tab: where the time goes. The step's wall time split into kernels and the
 * rest, the heaviest source lines, and every kernel on a roofline (log-log, under the
 * machine's measured roofs). Pure functions of the document's `profile`.
 */

import { baseName, microseconds, percent, sourceLabels } from './format';
import {
  Bound,
  Kernel,
  Profile,
  ProfiledKernel,
  TcxDocument,
  Target
} from './types';

/** A segment of the step bar: its fraction of the wall time. */
export interface Segment {
  label: string;
  us: number;
  fraction: number;
  kind: Bound | 'overhead' | 'unknown';
}

/** The wall time per step split into kernel time by bound, and the rest. */
export function stepSegments(profile: Profile): Segment[] {
  const { step } = profile;
  const wall = Math.max(step.wall_us, step.kernel_us, 1e-9);
  const out: Segment[] = [];
  const bound = step.bound_us ?? {};
  for (const kind of ['compute', 'memory', 'latency', 'unknown'] as const) {
    const us = bound[kind] ?? 0;
    if (us > 0) {
      out.push({
        label: `${kind}-bound kernels`,
        us,
        fraction: us / wall,
        kind
      });
    }
  }
  const overhead = Math.max(0, step.wall_us - step.kernel_us);
  if (overhead > 0) {
    out.push({
      label: 'outside kernels (Python, guards, launches, idle)',
      us: overhead,
      fraction: overhead / wall,
      kind: 'overhead'
    });
  }
  return out;
}

/** Where a profiled kernel lives in the explorer (its code), when it is a kernel of ours. */
export function kernelTarget(
  doc: TcxDocument,
  k: ProfiledKernel
): Target | undefined {
  if (
    typeof k.compile !== 'number' ||
    typeof k.output !== 'number' ||
    !doc.compiles[k.compile]
  ) {
    return undefined;
  }
  if (k.kind === 'extern') {
    return {
      tab: 'fusion',
      compile: k.compile,
      output: k.output,
      kernel: k.name,
      ...(typeof k.kernel === 'number' ? { index: k.kernel } : {})
    };
  }
  return { tab: 'code', compile: k.compile, output: k.output, kernel: k.name };
}

export interface Tick {
  value: number;
  at: number;
}

/** A log10 axis over `values` mapped onto [from, to] pixels, with a tick per decade. */
export function logAxis(
  values: number[],
  from: number,
  to: number
): { place(v: number): number; ticks: Tick[] } {
  const positive = values.filter(v => v > 0 && isFinite(v));
  const lo = positive.length
    ? Math.floor(Math.log10(Math.min(...positive)))
    : 0;
  let hi = positive.length ? Math.ceil(Math.log10(Math.max(...positive))) : 1;
  if (hi <= lo) {
    hi = lo + 1;
  }
  const place = (v: number) =>
    from + ((Math.log10(v) - lo) / (hi - lo)) * (to - from);
  const ticks: Tick[] = [];
  for (let d = lo; d <= hi; d++) {
    ticks.push({ value: 10 ** d, at: place(10 ** d) });
  }
  return { place, ticks };
}

export interface RooflinePoint {
  kernel: ProfiledKernel;
  index: number;
  intensity: number;
  gflops: number;
}

export interface Roofline {
  points: RooflinePoint[];
  bandwidth: number;
  peak: number | null;
  ridge: number | null;
  /** kernels left off the chart (no FLOPs, bytes or time) */
  missing: number;
}

/** The kernels that can be placed: FLOPs per byte against achieved GFLOP/s. */
export function roofline(profile: Profile): Roofline {
  const points: RooflinePoint[] = [];
  profile.kernels.forEach((kernel, index) => {
    if (kernel.flops && kernel.bytes && kernel.achieved_gflops) {
      points.push({
        kernel,
        index,
        intensity: kernel.flops / kernel.bytes,
        gflops: kernel.achieved_gflops
      });
    }
  });
  const peaks = Object.values(profile.peaks.gflops ?? {});
  const peak = peaks.length ? Math.max(...peaks) : null;
  const bandwidth = profile.peaks.bandwidth_gbps;
  return {
    points,
    bandwidth,
    peak,
    ridge: peak ? peak / bandwidth : null,
    missing: profile.kernels.length - points.length
  };
}

export interface TimedLine {
  label: string;
  code: string;
  us: number;
  share: number | null;
  /** this line's time as a fraction of the heaviest line's (for the bar) */
  relative: number;
  target?: Target;
}

/** The heaviest source lines, with labels for notebook cells. */
export function topLines(doc: TcxDocument, limit = 10): TimedLine[] {
  const profile = doc.profile;
  if (!profile) {
    return [];
  }
  const labels = sourceLabels(doc);
  const heaviest = Math.max(...profile.lines.map(l => l.time_us), 1e-9);
  return profile.lines.slice(0, limit).map(l => {
    const file = l.file ?? null;
    const label =
      file === null
        ? 'no source line'
        : `${labels[file] ? `${labels[file]}, line ${l.line}` : `${baseName(file)}:${l.line}`}`;
    return {
      label,
      code:
        l.code ?? (file === null ? 'nodes torch recorded no stack for' : ''),
      us: l.time_us,
      share: l.share,
      relative: l.time_us / heaviest,
      target:
        file !== null && typeof l.line === 'number'
          ? { tab: 'source', file, line: l.line }
          : undefined
    };
  });
}

export function verdictLine(profile: Profile): string {
  const { step } = profile;
  const per = profile.scope === 'run' ? 'over the run' : 'per call';
  return `${step.verdict}: ${microseconds(step.wall_us)} ${per}, ${percent(1 - step.overhead_share)} in kernels`;
}

/**
 * The profiled kernels of one output code, by their index in its kernels (empty without a
 * profile). A row written before rows named their entry (`kernel`) held every launch of its
 * name, so it stands for a kernel only where that name occurs once.
 */
export function kernelTimes(
  doc: TcxDocument,
  compile: number,
  output: number
): Map<number, ProfiledKernel> {
  const out = new Map<number, ProfiledKernel>();
  const kernels = doc.compiles[compile]?.output_codes[output]?.kernels ?? [];
  for (const k of doc.profile?.kernels ?? []) {
    if (k.compile !== compile || k.output !== output) {
      continue;
    }
    if (k.kernel !== undefined) {
      if (typeof k.kernel === 'number') {
        out.set(k.kernel, k);
      }
    } else if (kernels.filter(entry => entry.name === k.name).length === 1) {
      out.set(
        kernels.findIndex(entry => entry.name === k.name),
        k
      );
    }
  }
  return out;
}

/** "12.3 µs · 40.1%": a kernel's time per step and its share, for kernel lists; a kernel launched from several lines says how many (its total). */
export function timeLabel(k: ProfiledKernel | undefined): string {
  if (!k) {
    return '';
  }
  const sites = k.launch_sites ?? [];
  return `${microseconds(k.time_us)} · ${percent(k.share)}${sites.length > 1 ? ` · ${sites.length} launches` : ''}`;
}

export interface LaunchTime {
  /** "line 92" (of the output code) */
  label: string;
  nodes: string[];
  time: string;
}

/** Each launch line of a kernel with its own measured time, for a kernel launched from several lines (empty otherwise). */
export function launchTimes(
  kernel: Kernel,
  k: ProfiledKernel | undefined
): LaunchTime[] {
  const sites = kernel.launch_sites ?? [];
  if (sites.length < 2) {
    return [];
  }
  return sites.map(site => {
    const measured = k?.launch_sites?.find(l => l.line === site.line);
    return {
      label: `line ${site.line}`,
      nodes: site.post_grad_nodes ?? [],
      time: measured
        ? `${microseconds(measured.time_us)} · ${percent(measured.share)}`
        : ''
    };
  });
}
