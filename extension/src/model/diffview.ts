/**
 * The diff view's model: the checked diff, labels, the explorer targets a diff entry
 * links to, and a unified diff split into side-by-side rows. No DOM.
 */

import {
  CompileDiff,
  DIFF_SCHEMA,
  DocDiff,
  GraphDiff,
  OutputDiff
} from './difftypes';
import { Target } from './types';

export type Side = 'a' | 'b';

export type CheckedDiff =
  { ok: true; diff: DocDiff } | { ok: false; message: string };

const list = <T>(value: unknown): T[] =>
  Array.isArray(value) ? (value as T[]) : [];

/** The schema version first; containers the view iterates made arrays so nothing throws. */
export function checkDiff(data: unknown): CheckedDiff {
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return {
      ok: false,
      message: 'This output is not a tcexplore diff (not a JSON object).'
    };
  }
  const raw = data as Record<string, any>;
  if (raw.schema !== DIFF_SCHEMA) {
    const newer =
      typeof raw.schema === 'string' &&
      /^tcexplore-diff\/(\d+)$/.exec(raw.schema);
    return {
      ok: false,
      message:
        newer && Number(newer[1]) > 1
          ? `This diff was written by a newer tcexplore (schema "${raw.schema}"); this extension reads "${DIFF_SCHEMA}". Upgrade tcexplore and reload JupyterLab.`
          : `This output is not a tcexplore diff it can read (schema ${JSON.stringify(raw.schema ?? null)}; expected "${DIFF_SCHEMA}").`
    };
  }
  const side = (s: any) => ({
    label: String(s?.label ?? '?'),
    key: String(s?.key ?? ''),
    created: s?.created ?? null,
    torch: s?.torch ?? null,
    summary: s?.summary ?? {},
    source_labels:
      s?.source_labels &&
      typeof s.source_labels === 'object' &&
      !Array.isArray(s.source_labels)
        ? s.source_labels
        : {}
  });
  const compiles = list<any>(raw.compiles).map(c => ({
    ...c,
    changes: list(c?.changes),
    graphs: list<any>(c?.graphs).map(g => ({ ...g, nodes: list(g?.nodes) })),
    guards: {
      added: list(c?.guards?.added),
      removed: list(c?.guards?.removed)
    },
    outputs: list<any>(c?.outputs).map(o => ({
      ...o,
      kernels: list<any>(o?.kernels).map(k => ({
        ...k,
        fused_nodes: list(k?.fused_nodes),
        source_diff: String(k?.source_diff ?? '')
      }))
    }))
  }));
  return {
    ok: true,
    diff: {
      ...(raw as DocDiff),
      a: side(raw.a),
      b: side(raw.b),
      summary: raw.summary ?? {},
      compiles,
      timing: raw.timing ?? null,
      accuracy: raw.accuracy ?? null
    }
  };
}

/** A side's name: "A", and its label where one says more ("A · relu"; the default label is the letter). */
export function sideName(diff: DocDiff, side: Side): string {
  const letter = side.toUpperCase();
  const label = diff[side].label;
  return label && label !== letter ? `${letter} · ${label}` : letter;
}

const GRAPH_LABELS: Record<string, string> = {
  dynamo: 'Dynamo graph',
  'aot:forward': 'AOT forward',
  'aot:backward': 'AOT backward',
  'aot:inference': 'AOT inference'
};

export function graphLabel(ident: string): string {
  return ident.startsWith('post:')
    ? `post-grad ${ident.slice(5)}`
    : (GRAPH_LABELS[ident] ?? ident);
}

export function shortTarget(target: string | null | undefined): string {
  const text = String(target ?? '');
  for (const prefix of ['torch.ops.aten.', 'torch.ops.prims.', 'torch.ops.']) {
    if (text.startsWith(prefix)) {
      return text.slice(prefix.length);
    }
  }
  return text;
}

/** Where a node of a diffed graph is in side `side`'s explorer, if that side has it. */
export function nodeTarget(
  entry: CompileDiff,
  graph: GraphDiff,
  side: Side,
  name: string | null
): Target | null {
  const ref = entry[side];
  const key = graph[side];
  return ref && key && name
    ? { tab: 'graphs', compile: ref.index, graph: key, node: name }
    : null;
}

/** Where a kernel is in side `side`'s explorer: its code, or for an extern call its fusion. */
export function kernelTarget(
  entry: CompileDiff,
  output: OutputDiff,
  side: Side,
  kernel: { name: string | null; kind: string | null } | null
): Target | null {
  const ref = entry[side];
  const index = output[side];
  if (!ref || index === null || index === undefined || !kernel?.name) {
    return null;
  }
  return {
    tab: kernel.kind === 'extern' ? 'fusion' : 'code',
    compile: ref.index,
    output: index,
    kernel: kernel.name
  };
}

export interface SplitLine {
  no: number | null;
  text: string;
  kind: 'context' | 'removed' | 'added' | 'empty';
}

export type SplitRow = { hunk: string } | { a: SplitLine; b: SplitLine };

const EMPTY: SplitLine = { no: null, text: '', kind: 'empty' };

/** A unified diff as side-by-side rows: removed lines face the added lines they became. */
export function splitRows(diff: string): SplitRow[] {
  const out: SplitRow[] = [];
  let aNo = 0;
  let bNo = 0;
  let removed: SplitLine[] = [];
  let added: SplitLine[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      out.push({ a: removed[k] ?? EMPTY, b: added[k] ?? EMPTY });
    }
    removed = [];
    added = [];
  };
  const lines = diff.split('\n');
  const body =
    lines.length >= 2 &&
    lines[0].startsWith('--- ') &&
    lines[1].startsWith('+++ ')
      ? lines.slice(2)
      : lines;
  for (const line of body) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      flush();
      aNo = Number(hunk[1]);
      bNo = Number(hunk[2]);
      out.push({ hunk: line });
    } else if (line.startsWith('-')) {
      removed.push({ no: aNo++, text: line.slice(1), kind: 'removed' });
    } else if (line.startsWith('+')) {
      added.push({ no: bNo++, text: line.slice(1), kind: 'added' });
    } else if (line.startsWith(' ')) {
      flush();
      out.push({
        a: { no: aNo++, text: line.slice(1), kind: 'context' },
        b: { no: bNo++, text: line.slice(1), kind: 'context' }
      });
    } else if (line) {
      flush();
      out.push({ hunk: line }); // the truncation marker
    }
  }
  flush();
  return out;
}
