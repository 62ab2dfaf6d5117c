/**
 * The multi-rank document ("kind": "ranks" in tcexplore/1) as the Ranks view reads it: the
 * divergence findings, each rank's digest, and the rank documents that travelled with it.
 * Everything is untrusted input and normalised so a partial document never throws.
 */

import { plural } from './format';
import { SCHEMA } from './types';

export interface RankFinding {
  kind: string;
  ranks: number[];
  compile_id: string | null;
  title: string;
  groups: Array<{ ranks: number[]; value: string }>;
  evidence: Array<{ rank: number | null; text: string }>;
}

export interface RankCompile {
  id: string;
  frame?: {
    function?: string | null;
    file?: string | null;
    line?: number | null;
  } | null;
  status: string;
  graph_nodes: number | null;
  recompile_reasons: string[];
}

export interface RankEntry {
  rank: number;
  /** Which rule gave the rank ("metadata", "file_name", "order"); null in older documents. */
  rank_from: string | null;
  /** That rule in words, and how a conflict over the rank was settled, as Python wrote it. */
  rank_note: string | null;
  source: { kind?: string; path?: string | null };
  distributed: {
    rank?: number | null;
    world_size?: number | null;
    backend?: string | null;
  } | null;
  environment: Record<string, unknown>;
  capture: {
    source?: string;
    partial?: string | null;
    unavailable?: Array<{ field: string; reason: string }>;
  };
  summary: Record<string, number>;
  compiles: RankCompile[];
  graph_breaks: Array<{
    compile_id?: string | null;
    file?: string | null;
    line?: number | null;
    reason?: string;
  }>;
  collectives: Array<{ compile_id: string; graph: string; ops: string[] }>;
  error: { type?: string | null; message?: string | null } | null;
  document: unknown;
  document_left_out: { reason: string; bytes: number } | null;
}

/** The files the job was read from (Python's traces/folder.py and ranks/settle.py). */
export interface RankInputs {
  files: number;
  read: number;
  skipped: Array<{ path: string; reason: string; rank: number | null }>;
  /** One line of what was skipped or settled; null when nothing was. */
  line: string | null;
}

export interface RanksDocument {
  schema: string;
  kind: 'ranks';
  created?: string;
  world_size: number | null;
  /** The first line as Python wrote it (null in documents written before it was stored). */
  headline: string | null;
  inputs: RankInputs | null;
  ranks: RankEntry[];
  divergence: RankFinding[];
  /** Alike ranks, by lowest rank: one column and one tab each (every rank alone if absent). */
  rank_groups: number[][];
}

function list<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

function object(value: unknown): Record<string, any> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, any>)
    : {};
}

export function isRanksDocument(data: unknown): boolean {
  const raw = object(data);
  return raw.schema === SCHEMA && raw.kind === 'ranks';
}

function rankEntry(value: unknown): RankEntry {
  const e = object(value);
  return {
    ...e,
    rank: typeof e.rank === 'number' ? e.rank : -1,
    rank_from: typeof e.rank_from === 'string' ? e.rank_from : null,
    rank_note: typeof e.rank_note === 'string' ? e.rank_note : null,
    source: object(e.source),
    distributed: e.distributed ? object(e.distributed) : null,
    environment: object(e.environment),
    capture: object(e.capture),
    summary: object(e.summary),
    compiles: list<unknown>(e.compiles).map(c => {
      const r = object(c);
      return {
        ...r,
        id: String(r.id ?? '?'),
        status: String(r.status ?? 'unknown'),
        graph_nodes: typeof r.graph_nodes === 'number' ? r.graph_nodes : null,
        recompile_reasons: list<string>(r.recompile_reasons).map(String)
      };
    }),
    graph_breaks: list(e.graph_breaks),
    collectives: list<unknown>(e.collectives).map(c => ({
      ...object(c),
      ops: list<string>(object(c).ops).map(String)
    })),
    error: e.error ? object(e.error) : null,
    document: e.document ?? null,
    document_left_out: e.document_left_out ? object(e.document_left_out) : null
  } as RankEntry;
}

function rankFinding(value: unknown): RankFinding {
  const f = object(value);
  return {
    kind: String(f.kind ?? '?'),
    ranks: list<number>(f.ranks).filter(r => typeof r === 'number'),
    compile_id: typeof f.compile_id === 'string' ? f.compile_id : null,
    title: String(f.title ?? ''),
    groups: list<unknown>(f.groups).map(g => ({
      ranks: list<number>(object(g).ranks),
      value: String(object(g).value ?? '')
    })),
    evidence: list<unknown>(f.evidence).map(x => ({
      rank: typeof object(x).rank === 'number' ? object(x).rank : null,
      text: String(object(x).text ?? '')
    }))
  } as RankFinding;
}

/** The stored groups of alike ranks (of ranks the document holds), each other rank alone, by lowest rank. */
function rankGroups(groups: unknown, ranks: RankEntry[]): number[][] {
  const known = new Set(ranks.map(e => e.rank));
  const grouped = list<unknown>(groups)
    .map(g => list<number>(object(g).ranks).filter(r => known.has(r)))
    .filter(g => g.length);
  const listed = new Set(grouped.flat());
  return [
    ...grouped,
    ...ranks.filter(e => !listed.has(e.rank)).map(e => [e.rank])
  ].sort((a, b) => a[0] - b[0]);
}

function rankInputs(value: unknown): RankInputs | null {
  const inputs = object(value);
  return value
    ? {
        files: typeof inputs.files === 'number' ? inputs.files : 0,
        read: typeof inputs.read === 'number' ? inputs.read : 0,
        skipped: list<unknown>(inputs.skipped).map(item => {
          const s = object(item);
          return {
            path: String(s.path ?? '?'),
            reason: String(s.reason ?? ''),
            rank: typeof s.rank === 'number' ? s.rank : null
          };
        }),
        line: typeof inputs.line === 'string' ? inputs.line : null
      }
    : null;
}

export function normalizeRanks(data: unknown): RanksDocument {
  const raw = object(data);
  const ranks = list<unknown>(raw.ranks).map(rankEntry);
  return {
    ...raw,
    schema: SCHEMA,
    kind: 'ranks',
    world_size: typeof raw.world_size === 'number' ? raw.world_size : null,
    headline: typeof raw.headline === 'string' ? raw.headline : null,
    inputs: rankInputs(raw.inputs),
    ranks,
    divergence: list<unknown>(raw.divergence).map(rankFinding),
    rank_groups: rankGroups(raw.rank_groups, ranks)
  } as RanksDocument;
}

/** The entry standing for each group of alike ranks (its lowest rank's), in group order. */
export function groupLeads(doc: RanksDocument): RankEntry[] {
  const byRank = new Map(doc.ranks.map(e => [e.rank, e]));
  return doc.rank_groups.map(g => byRank.get(g[0])!);
}

/** A column's header: "rank 3", or "ranks 0-62 (alike)". */
export function groupLabel(group: number[]): string {
  return group.length > 1 ? `${ranksText(group)} (alike)` : ranksText(group);
}

/** rank -> the lowest rank of its group, whose tab shows it. */
export function groupLead(doc: RanksDocument): Map<number, number> {
  return new Map(
    doc.rank_groups.flatMap(g => g.map(r => [r, g[0]] as [number, number]))
  );
}

/** "rank 1", "ranks 0-2, 5". */
export function ranksText(ranks: number[]): string {
  const sorted = [...ranks].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const r of sorted) {
    const last = runs[runs.length - 1];
    if (last && r === last[last.length - 1] + 1) {
      last.push(r);
    } else {
      runs.push([r]);
    }
  }
  const parts = runs.map(run =>
    run.length > 2 ? `${run[0]}-${run[run.length - 1]}` : run.join(', ')
  );
  return `${sorted.length === 1 ? 'rank' : 'ranks'} ${parts.join(', ')}`;
}

/** Why the view has no headline: a document saved before it was stored. */
export const OLD_HEADLINE_NOTE =
  'This document was saved before tcexplore stored its headline: tcexplore.load() computes it.';

/** What the view says first, as Python decided it (tcexplore/ranks/build.py); null for a
 * document saved before it was stored (OLD_HEADLINE_NOTE). */
export function headline(doc: RanksDocument): string | null {
  return typeof doc.headline === 'string' ? doc.headline : null;
}

/** The side-by-side table: a label, then one value per group of alike ranks (its first's). */
export function sideBySide(doc: RanksDocument): Array<[string, string[]]> {
  const leads = groupLeads(doc);
  const keys = [...new Set(leads.flatMap(e => Object.keys(e.summary)))];
  const rows: Array<[string, string[]]> = [
    [
      'source',
      leads.map(
        e =>
          `${e.source.kind ?? '?'}${e.source.path ? ` ${e.source.path}` : ''}`
      )
    ],
    ['rank', leads.map(e => e.rank_note ?? '')],
    ['backend', leads.map(e => String(e.distributed?.backend ?? '?'))],
    ['world size', leads.map(e => String(e.distributed?.world_size ?? '?'))],
    ['torch', leads.map(e => String(e.environment.torch ?? '?'))]
  ];
  for (const key of keys) {
    rows.push([
      key.replace(/_/g, ' '),
      leads.map(e => String(e.summary[key] ?? '—'))
    ]);
  }
  rows.push([
    'raised',
    leads.map(e =>
      e.error ? `${e.error.type ?? 'error'}: ${e.error.message ?? ''}` : ''
    )
  ]);
  rows.push([
    'not available',
    leads.map(e => (e.capture.unavailable ?? []).map(u => u.field).join(', '))
  ]);
  rows.push(['partial', leads.map(e => e.capture.partial ?? '')]);
  return rows;
}

export interface CompileCell {
  text: string;
  status: string;
  recompiles: string[];
}

/** Compile ids (in first-seen order) by group of alike ranks: what it compiled under that id, or null. */
export function compileGrid(
  doc: RanksDocument
): Array<{ id: string; cells: Array<CompileCell | null> }> {
  const leads = groupLeads(doc);
  const ids = [...new Set(leads.flatMap(e => e.compiles.map(c => c.id)))];
  return ids.map(id => ({
    id,
    cells: leads.map(e => {
      const c = e.compiles.find(x => x.id === id);
      if (!c) {
        return null;
      }
      const nodes =
        c.graph_nodes === null ? 'no graph' : plural(c.graph_nodes, 'node');
      return {
        text: `${c.frame?.function ?? '?'} · ${nodes}`,
        status: c.status,
        recompiles: c.recompile_reasons
      };
    })
  }));
}

/** Why a rank's own explorer cannot open, or null when its document travelled with the view. */
export function leftOut(entry: RankEntry): string | null {
  if (entry.document && typeof entry.document === 'object') {
    return null;
  }
  const left = entry.document_left_out;
  return left
    ? `Rank ${entry.rank}'s document is not in this output (${(left.bytes / 1e6).toFixed(1)} MB): ${left.reason}.`
    : `Rank ${entry.rank}'s document is not in this output.`;
}
