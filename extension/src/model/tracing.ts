/**
 * Where Dynamo's tracing time goes in the user's code: each compile's `tracing` section
 * added up per function (file, first line, name) over the document's compiles, as Python
 * added it up (the document's `traced_functions`, tcexplore/findings/compile_time.py). Its
 * source says how fine it is: torch's Dynamo profiler times every traced function
 * (inlined calls too), the compile phases only the compiled frame's function with all it
 * inlined.
 */

import { Axis, AxisBar, fraction, timeAxis } from './axis';
import { duration } from './format';
import { resumeLabel } from './breaks';
import { Location, TcxDocument } from './types';

export interface TracedTotal {
  loc: Location;
  function: string;
  cumMs: number;
  selfMs: number | null;
  compiles: string[];
}

export interface TracingSummary {
  functions: TracedTotal[];
  /** "dynamo_profiler", "chromium_events", or both when compiles differ */
  sources: string[];
  /** the function names in words (resume functions: "f after line 19") */
  labels: Record<string, string>;
}

/** The stored totals; none for a document saved before they were. */
export function tracedFunctions(doc: TcxDocument): TracingSummary {
  const stored = doc.traced_functions;
  const functions = (stored?.functions ?? []).map(f => ({
    loc: { file: f.file, line: f.line, function: f.function, code: null },
    function: f.function,
    cumMs: f.cum_ms,
    selfMs: f.self_ms,
    compiles: f.compiles
  }));
  const labels: Record<string, string> = {};
  for (const f of functions) {
    labels[f.function] = resumeLabel(doc, f.function) ?? f.function;
  }
  return { functions, sources: stored?.sources ?? [], labels };
}

/** What the numbers mean, by their source. */
export function tracingNote(summary: TracingSummary): string {
  const profiler =
    'torch\'s Dynamo profiler timed every traced function: the bar is its time with the calls it inlined, "self" without them';
  const phases =
    "the compile phases time Dynamo's bytecode tracing per compiled frame, with everything it inlined; functions it inlined are not timed on their own (torch 2.13's Dynamo profiler, TORCH_COMPILE_DYNAMO_PROFILER=1, splits it per function)";
  const parts = summary.sources.map(s =>
    s === 'dynamo_profiler' ? profiler : phases
  );
  return `Tracing time, all compiles added up: ${parts.join('; ')}.`;
}

export interface TracingChart {
  axis: Axis;
  bars: AxisBar[];
}

/** The heaviest functions as bars to scale on one time axis. */
export function tracingChart(
  summary: TracingSummary,
  top = 12
): TracingChart | null {
  const shown = summary.functions.slice(0, top);
  if (!shown.length) {
    return null;
  }
  const axis = timeAxis(Math.max(...shown.map(f => f.cumMs)), 'tracing time');
  return {
    axis,
    bars: shown.map(f => ({
      label: summary.labels[f.function] ?? f.function,
      sub: `${f.compiles.length} compile${f.compiles.length === 1 ? '' : 's'}`,
      length: fraction(axis, f.cumMs),
      value:
        f.selfMs === null
          ? duration(f.cumMs)
          : `${duration(f.cumMs)} (self ${duration(f.selfMs)})`,
      className: 'tcx-bar-tracing',
      title: `${f.function} (${f.loc.file ?? '?'}:${f.loc.line ?? '?'}): traced ${duration(f.cumMs)} in ${f.compiles.join(', ')}`
    }))
  };
}
