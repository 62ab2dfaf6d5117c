/** The Overview tab: the stage pipeline and the findings that lead it. */

import { breakSites } from './breaks';
import { duration } from './format';
import {
  BreakSite,
  CaptureInfo,
  FindingEvidence,
  Fix,
  Location,
  RecompiledFunction as StoredRecompiled,
  ShapeInfo,
  Target,
  TcxDocument,
  TriedFix,
  UnreadItem
} from './types';

export type Severity = 'error' | 'warning' | 'info' | 'ok';

export interface Finding {
  severity: Severity;
  text: string;
  kind?: string;
  target?: Target;
  advice?: string | null;
  details?: string[];
  evidence?: Array<{ label: string; target?: Target }>;
  shape?: ShapeInfo;
  /** a graph-break finding: its site of the audit, all of it */
  site?: BreakSite;
  /** a recompile finding: the function and the guards that failed */
  recompiled?: RecompiledFunction;
  /** the setting its advice names (or why it is not tried), as Python decided it */
  fix?: Fix | null;
  /** that setting tried on the user's call: before → after */
  tried?: TriedFix;
}

/** One frame (function) compiled again, with every guard that failed and how often, as
 * Python grouped them (a recompile finding's `recompiled`, tcexplore/findings/recompile.py). */
export interface RecompiledFunction {
  function: string;
  frame: Location | null;
  count: number;
  compiles: Array<{ id: string; index: number }>;
  guards: Array<{ guard: string; count: number }>;
}

function recompiledOf(
  doc: TcxDocument,
  r: StoredRecompiled | undefined
): RecompiledFunction | undefined {
  return r
    ? {
        function: r.function,
        frame: r.frame ?? null,
        count: r.count,
        compiles: r.compiles.map(id => ({
          id,
          index: doc.compiles.findIndex(c => c.id === id)
        })),
        guards: r.guards
      }
    : undefined;
}

export interface Stage {
  name: string;
  counts: string[];
  time?: string;
  /** false: the stage did nothing in this document (e.g. no CUDA graph recorded). */
  active: boolean;
}

/**
 * The pipeline's stages as Python decided them (tcexplore/findings/pipeline.py: counts,
 * seconds, whether each did anything); null for a document saved before they were stored.
 */
export function pipeline(doc: TcxDocument): Stage[] | null {
  if (!Array.isArray(doc.pipeline)) {
    return null;
  }
  return doc.pipeline.map(s => ({
    name: s.name,
    counts: s.counts,
    time:
      typeof s.seconds === 'number' ? duration(s.seconds * 1000) : undefined,
    active: s.active
  }));
}

/** Why the Overview draws no pipeline: a document saved before its stages were stored. */
export const OLD_PIPELINE_NOTE =
  'This document was saved before tcexplore stored its pipeline stages: tcexplore.load() computes them.';

/**
 * The document's findings (decided once in Python, tcexplore/findings/), as the Overview
 * draws them: each with the link to its first evidence, and a graph break's audit site or
 * a recompile's failed guards for the details. Nothing is decided here.
 */
export function findings(doc: TcxDocument): Finding[] {
  if (!Array.isArray(doc.findings)) {
    return [];
  }
  const sites = breakSites(doc) ?? [];
  return doc.findings.map(f => {
    const evidence = (f.evidence ?? []).map(e => ({
      label: e.label,
      target: evidenceTarget(doc, e)
    }));
    const first = evidence.find(e => e.target);
    const loc = f.locations?.[0];
    const site =
      f.kind === 'graph_break' && loc
        ? sites.find(s => s.file === loc.file && s.line === loc.line)
        : undefined;
    return {
      severity: f.severity,
      text: f.title,
      kind: f.kind,
      target: first?.target,
      advice: f.advice ?? null,
      details: f.details ?? [],
      evidence,
      site,
      recompiled: recompiledOf(doc, f.recompiled),
      shape: f.shape,
      fix: f.fix ?? null,
      tried: f.tried
    };
  });
}

/** Why the Overview lists no findings: a document saved before they were recorded. */
export const OLD_DOCUMENT_NOTE =
  'This document was saved before tcexplore recorded its findings, so none are listed here. ' +
  'Read it with tcexplore.load() in Python (which computes them) and display or save it again.';

/** A finding's evidence as a place in the explorer (null: nothing to open). */
export function evidenceTarget(
  doc: TcxDocument,
  e: FindingEvidence
): Target | undefined {
  const compile =
    e.compile === undefined || e.compile === null
      ? -1
      : doc.compiles.findIndex(c => c.id === e.compile);
  switch (e.tab) {
    case 'source':
      return e.file && typeof e.line === 'number'
        ? { tab: 'source', file: e.file, line: e.line }
        : undefined;
    case 'guards':
      return compile >= 0 ? { tab: 'guards', compile } : undefined;
    case 'fusion':
      return compile >= 0 && typeof e.output === 'number'
        ? { tab: 'fusion', compile, output: e.output }
        : undefined;
    case 'cudagraphs':
    case 'timing':
    case 'accuracy':
    case 'shapes':
    case 'overview':
    case 'compare':
    case 'memory':
      return { tab: e.tab };
    case 'profile':
      return { tab: 'profile' };
    case 'run':
      return { tab: 'run' };
    default:
      return undefined;
  }
}

export interface Origin {
  /** "captured live" or "read from the TORCH_TRACE log …", with the rank when there is one */
  line: string;
  partial: string | null;
  /** what the document's source does not record: unknown, not empty */
  unavailable: Array<{ field: string; reason: string }>;
  /** what could not be read (capture.unread, stored by Python): null when nothing */
  unread: { title: string; items: UnreadItem[] } | null;
}

export function origin(doc: TcxDocument): Origin {
  const capture: Partial<CaptureInfo> = doc.capture ?? {};
  const env: Partial<NonNullable<TcxDocument['environment']>> =
    doc.environment ?? {};
  const parts = [
    capture.source === 'trace'
      ? `read from the TORCH_TRACE log ${capture.path ?? ''}`.trim()
      : 'captured live'
  ];
  const dist = doc.distributed;
  if (dist && typeof dist.rank === 'number') {
    parts.push(
      `rank ${dist.rank}${dist.world_size ? ` of ${dist.world_size}` : ''}${dist.backend ? ` (${dist.backend})` : ''}`
    );
  }
  parts.push(`torch ${String(env.torch ?? '?')}`);
  if (doc.created) {
    parts.push(`document made ${doc.created}`);
  }
  const unavailable = Array.isArray(capture.unavailable)
    ? capture.unavailable
        .filter(u => u && typeof u.field === 'string')
        .map(u => ({ field: u.field, reason: String(u.reason ?? '') }))
    : [];
  return {
    line: parts.join(' · '),
    partial: typeof capture.partial === 'string' ? capture.partial : null,
    unavailable,
    unread: unreadOf(capture)
  };
}

function unreadOf(capture: Partial<CaptureInfo>): Origin['unread'] {
  const unread = capture.unread;
  const items = Array.isArray(unread?.items)
    ? unread.items.filter(i => i && typeof i === 'object')
    : [];
  if (!unread || !items.length) {
    return null;
  }
  const counts = Object.entries(unread.counts ?? {})
    .filter(([, n]) => n)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return { title: `Unread events (${unread.events ?? 0}; ${counts})`, items };
}
