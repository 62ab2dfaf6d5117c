/**
 * The diff of two tcexplore documents ("tcexplore-diff/1"), computed in the browser.
 * Spelled step for step like tcexplore/docdiff/compute.py, whose docstring explains the
 * pairing rules; tests/fixtures/docdiff pins both implementations to one result.
 * Here: computeDiff, the compiles' pairing and each pair's entry, the summary, timing and
 * accuracy; a pair's graphs, guards and kernels are diffed by diffgraphs.ts, diffguards.ts
 * and diffkernels.ts; the diff's shape is difftypes.ts.
 */

import { cacheKeyChanges } from './cachekeys';
import { guards } from './diffguards';
import { graphs } from './diffgraphs';
import { outputs } from './diffkernels';
import {
  AccuracySide,
  CompileDiff,
  CompileRef,
  DIFF_SCHEMA,
  DiffSide,
  DocDiff,
  Loose,
  orNull,
  SUMMARY_KEYS,
  TimingSide
} from './difftypes';
import { sourceLabels } from './format';
import {
  asOneFile,
  compileKeys,
  documentKey,
  fileId,
  frameFile,
  Labels
} from './identity';
import { Compile, Location, TcxDocument } from './types';

export function computeDiff(
  a: TcxDocument,
  b: TcxDocument,
  labelA: string,
  labelB: string
): DocDiff {
  const la = sourceLabels(a);
  const lb = sourceLabels(b);
  const ca = a.compiles ?? [];
  const cb = b.compiles ?? [];
  const entries = pairCompiles(ca, cb, la, lb).map(([i, j]) =>
    compileEntry(i, j, ca, cb, la, lb)
  );
  return {
    schema: DIFF_SCHEMA,
    a: side(a, labelA),
    b: side(b, labelB),
    summary: summarize(entries),
    compiles: entries,
    timing: timing(a, b),
    accuracy: accuracy(a, b)
  };
}

function side(doc: TcxDocument, label: string): DiffSide {
  const environment = (doc.environment ?? {}) as Loose;
  return {
    label,
    key: documentKey(doc),
    created: orNull(doc.created) ?? null,
    torch: orNull(environment.torch),
    summary: doc.summary ?? {},
    source_labels: sourceLabels(doc)
  };
}

function summarize(entries: CompileDiff[]): DocDiff['summary'] {
  const summary = Object.fromEntries(SUMMARY_KEYS.map(k => [k, 0])) as Record<
    string,
    number
  >;
  for (const entry of entries) {
    if (entry.status !== 'same') {
      summary[`compiles_${entry.status}`] += 1;
    }
    for (const graph of entry.graphs) {
      for (const node of graph.nodes) {
        summary[`nodes_${node.status}`] += 1;
      }
    }
    for (const output of entry.outputs) {
      for (const kernel of output.kernels) {
        summary[`kernels_${kernel.status}`] += 1;
      }
    }
    summary.guards_added += entry.guards.added.length;
    summary.guards_removed += entry.guards.removed.length;
  }
  return summary as DocDiff['summary'];
}

// ---------------------------------------------------------------------------- compiles

function pairCompiles(
  ca: Compile[],
  cb: Compile[],
  la: Labels,
  lb: Labels
): Array<[number | null, number | null]> {
  const keysA = ca.map(c => compileKeys(c, la));
  const keysB = cb.map(c => compileKeys(c, lb));
  const partner = new Map<number, number>();
  const taken = new Set<number>();
  for (const k of [0, 1, 2]) {
    const free = new Map<string, number[]>();
    keysB.forEach((key, j) => {
      if (!taken.has(j)) {
        free.set(key[k], [...(free.get(key[k]) ?? []), j]);
      }
    });
    keysA.forEach((key, i) => {
      const candidates = free.get(key[k]);
      if (!partner.has(i) && candidates && candidates.length) {
        const j = candidates.shift()!;
        partner.set(i, j);
        taken.add(j);
      }
    });
  }
  const out: Array<[number | null, number | null]> = ca.map((_, i) => [
    i,
    partner.get(i) ?? null
  ]);
  cb.forEach((_, j) => {
    if (!taken.has(j)) {
      out.push([null, j]);
    }
  });
  return out;
}

function compileRef(record: Compile, index: number): CompileRef {
  const frame = (record.frame ?? {}) as Location;
  return {
    id: orNull(record.id),
    index,
    status: orNull(record.status),
    frame: {
      function: orNull(frame.function),
      file: orNull(frame.file),
      line: orNull(frame.line)
    }
  };
}

function errorType(record: Compile): string | null {
  const error = record.error;
  return error && typeof error === 'object' ? orNull(error.type) : null;
}

function compileEntry(
  i: number | null,
  j: number | null,
  ca: Compile[],
  cb: Compile[],
  la: Labels,
  lb: Labels
): CompileDiff {
  const entry: CompileDiff = {
    status: 'same',
    a: i === null ? null : compileRef(ca[i], i),
    b: j === null ? null : compileRef(cb[j], j),
    changes: [],
    graphs: [],
    guards: { added: [], removed: [] },
    outputs: []
  };
  if (i === null || j === null) {
    entry.status = i === null ? 'added' : 'removed';
    return entry;
  }
  const x = ca[i];
  const y = cb[j];
  if (x.status !== y.status) {
    entry.changes.push({
      field: 'status',
      a: orNull(x.status),
      b: orNull(y.status)
    });
  }
  entry.changes.push(...cacheKeyChanges(x, y));
  const errorA = errorType(x);
  const errorB = errorType(y);
  if (errorA !== errorB) {
    entry.changes.push({ field: 'error', a: errorA, b: errorB });
  }
  const fileA = fileId(frameFile(x), la);
  const fileB = fileId(frameFile(y), lb);
  if (fileA !== fileB) {
    // paired across files: say so, and compare them as one file
    entry.changes.push({ field: 'file', a: fileA, b: fileB });
    la = asOneFile(x, la);
    lb = asOneFile(y, lb);
  }
  const { entries, renames } = graphs(x, y, la, lb);
  entry.graphs = entries.filter(g => g.nodes.length);
  entry.guards = guards(x.guards ?? [], y.guards ?? []);
  entry.outputs = outputs(x, y, renames).filter(o => o.kernels.length);
  const different =
    entry.changes.length ||
    entry.graphs.length ||
    entry.outputs.length ||
    entry.guards.added.length ||
    entry.guards.removed.length;
  entry.status = different ? 'changed' : 'same';
  return entry;
}

// ---------------------------------------------------------------------------- measurements

function timing(a: TcxDocument, b: TcxDocument): DocDiff['timing'] {
  const ta = a.timing as Loose | undefined;
  const tb = b.timing as Loose | undefined;
  if (!ta || typeof ta !== 'object' || !tb || typeof tb !== 'object') {
    return null;
  }
  const pick = (t: Loose): TimingSide => ({
    eager_ms: t.eager?.median_ms ?? null,
    compiled_ms: t.compiled?.median_ms ?? null,
    speedup: t.speedup ?? null,
    compile_s: t.compile_s ?? null,
    noisy: t.noisy === true
  });
  return { a: pick(ta), b: pick(tb) };
}

function accuracy(a: TcxDocument, b: TcxDocument): DocDiff['accuracy'] {
  const aa = a.accuracy as Loose | undefined;
  const ab = b.accuracy as Loose | undefined;
  if (!aa || typeof aa !== 'object' || !ab || typeof ab !== 'object') {
    return null;
  }
  const pick = (acc: Loose): AccuracySide => {
    const errors = ((acc.outputs ?? []) as Loose[])
      .map(o => o.max_abs_err)
      .filter((v): v is number => typeof v === 'number');
    return {
      ok: acc.ok === true,
      max_abs_err: errors.length ? Math.max(...errors) : null
    };
  };
  return { a: pick(aa), b: pick(ab) };
}
