/**
 * The Run tab: the profiled run step by step as the document's `profile.run` stores it
 * (measure/ decided every figure and every text). Here only where things go: each span of
 * the drawn step placed on the time axis, its label inside the bar where it fits, else on
 * the first lane below where it overlaps no other label; and where each row links.
 */

import { Run, RunSpan, Target, TcxDocument } from './types';

/** Why a document with a profile has no Run view. */
export const RUN_BEFORE_NOTE =
  'This document was made before tcexplore measured runs: its profile has no per-frame times or eager gaps.';

export function runOf(doc: TcxDocument): Run | null {
  const run = doc.profile?.run;
  return run && typeof run === 'object' && run.timeline ? run : null;
}

export interface Placed {
  span: RunSpan;
  index: number;
  /** the bar, in px from the plot's start */
  x: number;
  width: number;
  /** where its label is drawn: lane 0 inside the bar, 1.. below it; null: only in its tooltip */
  label: { x: number; lane: number } | null;
}

export interface Placement {
  /** px per character of the label font, and the free space kept between two labels */
  char: number;
  gap: number;
  /** lanes of labels below the bar at most */
  lanes: number;
}

/** The timeline's spans on a plot `width` px wide for a step of `extent` µs (the axis end). */
export function placeSpans(
  spans: RunSpan[],
  extent: number,
  width: number,
  { char, gap, lanes }: Placement
): Placed[] {
  const scale = extent > 0 ? width / extent : 0;
  const ends: number[] = Array.from({ length: lanes }, () => -Infinity);
  return spans.map((span, index) => {
    const x = Math.max(0, span.start_us * scale);
    const w = Math.max(1, (span.end_us - span.start_us) * scale);
    const text = span.label.length * char;
    if (text + 2 * gap <= w) {
      return { span, index, x, width: w, label: { x: x + gap, lane: 0 } };
    }
    const at = Math.max(0, Math.min(x, width - text));
    const lane = ends.findIndex(end => at >= end + gap);
    if (lane < 0 || text > width) {
      return { span, index, x, width: w, label: null };
    }
    ends[lane] = at + text;
    return { span, index, x, width: w, label: { x: at, lane: lane + 1 } };
  });
}

/** A compiled frame's compile in Guards & recompiles, as the Overview's compile links go. */
export function compileTarget(
  doc: TcxDocument,
  compile: number | null
): Target | undefined {
  return compile !== null && doc.compiles[compile]
    ? { tab: 'guards', compile }
    : undefined;
}

/** A source line in the Source tab. */
export function lineTarget(
  file: string | null,
  line: number | null
): Target | undefined {
  return file && typeof line === 'number'
    ? { tab: 'source', file, line }
    : undefined;
}

/** A graph break's site among the Overview's findings (sites group breaks by their line). */
export function breakTarget(
  doc: TcxDocument,
  index: number | null
): Target | undefined {
  const brk = index === null ? undefined : doc.graph_breaks[index];
  return brk && brk.file && typeof brk.line === 'number'
    ? { tab: 'overview', file: brk.file, line: brk.line }
    : undefined;
}
