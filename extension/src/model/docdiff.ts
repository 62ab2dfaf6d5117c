/**
 * The diff of two tcexplore documents ("tcexplore-diff/1"), computed in the browser.
 * Spelled step for step like tcexplore/docdiff/compute.py, whose docstring explains the
 * pairing rules; tests/fixtures/docdiff pins both implementations to one result.
 */

import { matches, rows } from './align';
import { cacheKeyChanges } from './cachekeys';
import { asOneFile, compileKeys, documentKey, fileId, frameFile, guardKey, kernelText, Labels, nodeKey, nodeTarget, sourceId, sourceLabels, text } from './identity';
import { Compile, Guard, Kernel, Location, TcxDocument } from './types';
import { unified } from './unified';

export const DIFF_MIME_TYPE = 'application/vnd.tcexplore.diff.v1+json';
export const DIFF_SCHEMA = 'tcexplore-diff/1';
export const SUMMARY_KEYS = [
  'compiles_added', 'compiles_removed', 'compiles_changed', 'nodes_added', 'nodes_removed', 'nodes_changed',
  'kernels_added', 'kernels_removed', 'kernels_changed', 'guards_added', 'guards_removed'
] as const;
const AOT_KINDS = ['forward', 'backward', 'inference'];

type Loose = Record<string, any>;

export interface DiffSide {
  label: string;
  key: string;
  created: string | null;
  torch: string | null;
  summary: Record<string, number>;
  /** the document's notebook-cell labels (file -> "cell [5]"), for naming lines */
  source_labels?: Record<string, string>;
}

export interface CompileRef {
  id: string | null;
  index: number;
  status: string | null;
  frame: Location;
}

export interface NodeView {
  name: string | null;
  op: string | null;
  target: string | null;
  args: string[];
  shape: string[] | null;
  dtype: string | null;
  source: Location | null;
}

export interface NodeChange {
  status: 'added' | 'removed' | 'changed';
  a: NodeView | null;
  b: NodeView | null;
  changes: string[];
}

export interface GraphDiff {
  graph: string;
  a: string | null;
  b: string | null;
  approximate: boolean;
  nodes: NodeChange[];
}

export interface GuardView {
  type: string | null;
  source: string | null;
  expression: string | null;
  user_code: string | null;
}

export interface KernelChange {
  status: 'added' | 'removed' | 'changed';
  a: { name: string | null; kind: string | null } | null;
  b: { name: string | null; kind: string | null } | null;
  source_diff: string;
  fused_nodes: Array<{ a: string | null; b: string | null }>;
}

export interface OutputDiff {
  output: string;
  a: number | null;
  b: number | null;
  kernels: KernelChange[];
}

export interface CompileDiff {
  status: 'same' | 'changed' | 'added' | 'removed';
  a: CompileRef | null;
  b: CompileRef | null;
  changes: Array<{ field: string; a: unknown; b: unknown }>;
  graphs: GraphDiff[];
  guards: { added: GuardView[]; removed: GuardView[] };
  outputs: OutputDiff[];
}

export interface TimingSide {
  eager_ms: number | null;
  compiled_ms: number | null;
  speedup: number | null;
  compile_s: number | null;
  noisy: boolean;
}

export interface AccuracySide {
  ok: boolean;
  max_abs_err: number | null;
}

export interface DocDiff {
  schema: string;
  a: DiffSide;
  b: DiffSide;
  summary: Record<(typeof SUMMARY_KEYS)[number], number>;
  compiles: CompileDiff[];
  timing: { a: TimingSide; b: TimingSide } | null;
  accuracy: { a: AccuracySide; b: AccuracySide } | null;
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

export function computeDiff(a: TcxDocument, b: TcxDocument, labelA: string, labelB: string): DocDiff {
  const la = sourceLabels(a);
  const lb = sourceLabels(b);
  const ca = a.compiles ?? [];
  const cb = b.compiles ?? [];
  const entries = pairCompiles(ca, cb, la, lb).map(([i, j]) => compileEntry(i, j, ca, cb, la, lb));
  return { schema: DIFF_SCHEMA, a: side(a, labelA), b: side(b, labelB), summary: summarize(entries), compiles: entries, timing: timing(a, b), accuracy: accuracy(a, b) };
}

function side(doc: TcxDocument, label: string): DiffSide {
  const environment = (doc.environment ?? {}) as Loose;
  return { label, key: documentKey(doc), created: orNull(doc.created) ?? null, torch: orNull(environment.torch), summary: doc.summary ?? {}, source_labels: sourceLabels(doc) };
}

function summarize(entries: CompileDiff[]): DocDiff['summary'] {
  const summary = Object.fromEntries(SUMMARY_KEYS.map(k => [k, 0])) as Record<string, number>;
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

function pairCompiles(ca: Compile[], cb: Compile[], la: Labels, lb: Labels): Array<[number | null, number | null]> {
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
  const out: Array<[number | null, number | null]> = ca.map((_, i) => [i, partner.get(i) ?? null]);
  cb.forEach((_, j) => {
    if (!taken.has(j)) {
      out.push([null, j]);
    }
  });
  return out;
}

function compileRef(record: Compile, index: number): CompileRef {
  const frame = (record.frame ?? {}) as Location;
  return { id: orNull(record.id), index, status: orNull(record.status), frame: { function: orNull(frame.function), file: orNull(frame.file), line: orNull(frame.line) } };
}

function errorType(record: Compile): string | null {
  const error = record.error;
  return error && typeof error === 'object' ? orNull(error.type) : null;
}

function compileEntry(i: number | null, j: number | null, ca: Compile[], cb: Compile[], la: Labels, lb: Labels): CompileDiff {
  const entry: CompileDiff = {
    status: 'same', a: i === null ? null : compileRef(ca[i], i), b: j === null ? null : compileRef(cb[j], j), changes: [],
    graphs: [], guards: { added: [], removed: [] }, outputs: []
  };
  if (i === null || j === null) {
    entry.status = i === null ? 'added' : 'removed';
    return entry;
  }
  const x = ca[i];
  const y = cb[j];
  if (x.status !== y.status) {
    entry.changes.push({ field: 'status', a: orNull(x.status), b: orNull(y.status) });
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
  const different = entry.changes.length || entry.graphs.length || entry.outputs.length || entry.guards.added.length || entry.guards.removed.length;
  entry.status = different ? 'changed' : 'same';
  return entry;
}

// ---------------------------------------------------------------------------- graphs

function outputIds(record: Compile): string[] {
  const seen = new Map<string, number>();
  return (record.output_codes ?? []).map(output => {
    const kind = text(output.kind);
    const id = seen.has(kind) ? `${kind}#${seen.get(kind)}` : kind;
    seen.set(kind, (seen.get(kind) ?? 0) + 1);
    return id;
  });
}

function postGradIds(record: Compile): string[] {
  const outputs = record.output_codes ?? [];
  const ids = outputIds(record);
  const found: string[] = [];
  (record.post_grad_graphs ?? []).forEach((_, index) => {
    const n = outputs.findIndex(o => o.post_grad_graph === index);
    const owner = n >= 0 ? ids[n] : `#${index}`;
    found.push(found.includes(owner) ? `#${index}` : owner);
  });
  return found;
}

function graphsOf(record: Compile): Map<string, [string, Loose]> {
  const found = new Map<string, [string, Loose]>();
  if (record.dynamo_graph && typeof record.dynamo_graph === 'object') {
    found.set('dynamo', ['dynamo', record.dynamo_graph]);
  }
  const aot = (record.aot_graphs ?? {}) as Loose;
  for (const kind of AOT_KINDS) {
    if (aot[kind] && typeof aot[kind] === 'object') {
      found.set(`aot:${kind}`, [`aot:${kind}`, aot[kind]]);
    }
  }
  const ids = postGradIds(record);
  (record.post_grad_graphs ?? []).forEach((graph, index) => found.set(`post:${ids[index]}`, [`post:${index}`, graph]));
  return found;
}

function graphs(x: Compile, y: Compile, la: Labels, lb: Labels): { entries: GraphDiff[]; renames: Map<string, Map<string, string>> } {
  const ga = graphsOf(x);
  const gb = graphsOf(y);
  const entries: GraphDiff[] = [];
  const renames = new Map<string, Map<string, string>>();
  for (const ident of [...ga.keys(), ...[...gb.keys()].filter(k => !ga.has(k))]) {
    const [keyA, graphA]: [string | null, Loose] = ga.get(ident) ?? [null, {}];
    const [keyB, graphB]: [string | null, Loose] = gb.get(ident) ?? [null, {}];
    const { entries: found, rename, approximate } = nodes(graphA.nodes ?? [], graphB.nodes ?? [], la, lb);
    renames.set(ident, rename);
    entries.push({ graph: ident, a: keyA, b: keyB, approximate, nodes: found });
  }
  return { entries, renames };
}

function nodeView(node: Loose): NodeView {
  const meta = node.meta && typeof node.meta === 'object' && !Array.isArray(node.meta) ? node.meta : {};
  const source = node.source;
  return {
    name: orNull(node.name), op: orNull(node.op), target: orNull(node.target), args: [...(node.args ?? [])],
    shape: Array.isArray(meta.shape) ? meta.shape : null,
    dtype: typeof meta.dtype === 'string' ? meta.dtype : null,
    source: source && typeof source === 'object' && !Array.isArray(source)
      ? { file: orNull(source.file), line: orNull(source.line), function: orNull(source.function), code: orNull(source.code) }
      : null
  };
}

function sameList(x: unknown[] | null, y: unknown[] | null): boolean {
  if (x === null || y === null) {
    return x === y;
  }
  return x.length === y.length && x.every((v, k) => v === y[k]);
}

function nodeChanges(x: Loose, y: Loose, rename: Map<string, string>, la: Labels, lb: Labels): string[] {
  const vx = nodeView(x);
  const vy = nodeView(y);
  const changes = nodeTarget(x) !== nodeTarget(y) ? ['target'] : [];
  if (!sameList(vx.shape, vy.shape)) {
    changes.push('shape');
  }
  if (vx.dtype !== vy.dtype) {
    changes.push('dtype');
  }
  if (sourceId(x.source, la) !== sourceId(y.source, lb)) {
    changes.push('source');
  }
  if (!sameList(vx.args.map(arg => rename.get(arg) ?? null), vy.args)) {
    changes.push('inputs');
  }
  return changes;
}

function nodes(na: Loose[], nb: Loose[], la: Labels, lb: Labels): { entries: NodeChange[]; rename: Map<string, string>; approximate: boolean } {
  const { found, approximate } = matches(na.map(n => nodeKey(n, la)), nb.map(n => nodeKey(n, lb)));
  const aligned = rows(na.length, nb.length, found, (i, j) => na[i].op === nb[j].op);
  const rename = new Map<string, string>();
  for (const [i, j] of aligned) {
    if (i !== null && j !== null) {
      rename.set(text(na[i].name), text(nb[j].name));
    }
  }
  const entries: NodeChange[] = [];
  for (const [i, j] of aligned) {
    if (i === null || j === null) {
      entries.push({ status: i === null ? 'added' : 'removed', a: i === null ? null : nodeView(na[i]), b: j === null ? null : nodeView(nb[j]), changes: [] });
      continue;
    }
    const changes = nodeChanges(na[i], nb[j], rename, la, lb);
    if (changes.length) {
      entries.push({ status: 'changed', a: nodeView(na[i]), b: nodeView(nb[j]), changes });
    }
  }
  return { entries, rename, approximate };
}

// ---------------------------------------------------------------------------- guards

function guardView(guard: Guard): GuardView {
  return { type: orNull(guard.type), source: orNull(guard.source), expression: orNull(guard.expression), user_code: orNull(guard.user_code) };
}

function onlyIn(mine: Guard[], theirs: Guard[]): GuardView[] {
  const counts = new Map<string, number>();
  for (const guard of theirs) {
    const key = guardKey(guard);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const left: GuardView[] = [];
  for (const guard of mine) {
    const key = guardKey(guard);
    if ((counts.get(key) ?? 0) > 0) {
      counts.set(key, counts.get(key)! - 1);
    } else {
      left.push(guardView(guard));
    }
  }
  return left;
}

function guards(ga: Guard[], gb: Guard[]): { added: GuardView[]; removed: GuardView[] } {
  return { added: onlyIn(gb, ga), removed: onlyIn(ga, gb) };
}

// ---------------------------------------------------------------------------- kernels

function outputs(x: Compile, y: Compile, renames: Map<string, Map<string, string>>): OutputDiff[] {
  const oa = x.output_codes ?? [];
  const ob = y.output_codes ?? [];
  const idsA = outputIds(x);
  const idsB = outputIds(y);
  const postA = postGradIds(x);
  const entries: OutputDiff[] = [];
  for (const ident of [...idsA, ...idsB.filter(k => !idsA.includes(k))]) {
    const ia = idsA.includes(ident) ? idsA.indexOf(ident) : null;
    const ib = idsB.includes(ident) ? idsB.indexOf(ident) : null;
    const ka = ia !== null ? oa[ia].kernels ?? [] : [];
    const kb = ib !== null ? ob[ib].kernels ?? [] : [];
    const graph = ia !== null ? oa[ia].post_grad_graph : null;
    const rename = typeof graph === 'number' && graph >= 0 && graph < postA.length ? renames.get(`post:${postA[graph]}`) ?? new Map<string, string>() : new Map<string, string>();
    const kernels = pairKernels(ka, kb, rename).map(([i, j]) => kernelEntry(i === null ? null : ka[i], j === null ? null : kb[j], rename));
    entries.push({ output: ident, a: ia, b: ib, kernels: kernels.filter((k): k is KernelChange => k !== null) });
  }
  return entries;
}

function pairKernels(ka: Kernel[], kb: Kernel[], rename: Map<string, string>): Array<[number | null, number | null]> {
  const partner = new Map<number, number>();
  const taken = new Set<number>();
  ka.forEach((kernel, i) => {
    const mine = new Set((kernel.post_grad_nodes ?? []).filter(n => rename.has(n)).map(n => rename.get(n)!));
    let best: number | null = null;
    let bestShared = 0;
    kb.forEach((other, j) => {
      if (taken.has(j) || other.kind !== kernel.kind) {
        return;
      }
      const shared = (other.post_grad_nodes ?? []).filter(n => mine.has(n)).length;
      if (shared > bestShared) {
        best = j;
        bestShared = shared;
      }
    });
    if (best !== null) {
      partner.set(i, best);
      taken.add(best);
    }
  });
  const sames: Array<(p: Kernel, q: Kernel) => boolean> = [(p, q) => kernelText(p, rename) === kernelText(q), (p, q) => p.name === q.name];
  for (const same of sames) {
    ka.forEach((kernel, i) => {
      if (partner.has(i)) {
        return;
      }
      const j = kb.findIndex((other, k) => !taken.has(k) && other.kind === kernel.kind && same(kernel, other));
      if (j >= 0) {
        partner.set(i, j);
        taken.add(j);
      }
    });
  }
  const out: Array<[number | null, number | null]> = ka.map((_, i) => [i, partner.get(i) ?? null]);
  kb.forEach((_, j) => {
    if (!taken.has(j)) {
      out.push([null, j]);
    }
  });
  return out;
}

function fused(x: Kernel | null, y: Kernel | null, rename: Map<string, string>): Array<{ a: string | null; b: string | null }> {
  const theirs = new Set(y?.post_grad_nodes ?? []);
  const used = new Set<string>();
  const out: Array<{ a: string | null; b: string | null }> = [];
  for (const name of x?.post_grad_nodes ?? []) {
    const partner = rename.get(name);
    if (partner !== undefined && theirs.has(partner)) {
      used.add(partner);
      out.push({ a: name, b: partner });
    } else {
      out.push({ a: name, b: null });
    }
  }
  for (const name of y?.post_grad_nodes ?? []) {
    if (!used.has(name)) {
      out.push({ a: null, b: name });
    }
  }
  return out;
}

function kernelEntry(x: Kernel | null, y: Kernel | null, rename: Map<string, string>): KernelChange | null {
  const textA = x !== null ? kernelText(x, rename) : '';
  const textB = y !== null ? kernelText(y) : '';
  let status: KernelChange['status'];
  const pairs = fused(x, y, rename);
  if (x !== null && y !== null) {
    if (textA === textB && pairs.every(f => f.a !== null && f.b !== null)) {
      return null;
    }
    status = 'changed';
  } else {
    status = x === null ? 'added' : 'removed';
  }
  const diff = textA === textB ? '' : unified(
    x !== null ? text(x.source).split('\n') : [], y !== null ? text(y.source).split('\n') : [],
    x !== null ? textA.split('\n') : [], y !== null ? textB.split('\n') : [],
    x !== null ? text(x.name) : '/dev/null', y !== null ? text(y.name) : '/dev/null');
  return {
    status,
    a: x === null ? null : { name: orNull(x.name), kind: orNull(x.kind) },
    b: y === null ? null : { name: orNull(y.name), kind: orNull(y.kind) },
    source_diff: diff,
    fused_nodes: pairs
  };
}

// ---------------------------------------------------------------------------- measurements

function timing(a: TcxDocument, b: TcxDocument): DocDiff['timing'] {
  const ta = a.timing as Loose | undefined;
  const tb = b.timing as Loose | undefined;
  if (!ta || typeof ta !== 'object' || !tb || typeof tb !== 'object') {
    return null;
  }
  const pick = (t: Loose): TimingSide => ({
    eager_ms: t.eager?.median_ms ?? null, compiled_ms: t.compiled?.median_ms ?? null,
    speedup: t.speedup ?? null, compile_s: t.compile_s ?? null, noisy: t.noisy === true
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
    const errors = ((acc.outputs ?? []) as Loose[]).map(o => o.max_abs_err).filter((v): v is number => typeof v === 'number');
    return { ok: acc.ok === true, max_abs_err: errors.length ? Math.max(...errors) : null };
  };
  return { a: pick(aa), b: pick(ab) };
}
