/**
 * The shape of a diff of two tcexplore documents ("tcexplore-diff/1"), as
 * tcexplore/schema/tcexplore-diff-1.schema.json defines it: what computeDiff (docdiff.ts)
 * builds and the diff view reads.
 */

import { Location } from './types';

export const DIFF_MIME_TYPE = 'application/vnd.tcexplore.diff.v1+json';
export const DIFF_SCHEMA = 'tcexplore-diff/1';
export const SUMMARY_KEYS = [
  'compiles_added', 'compiles_removed', 'compiles_changed', 'nodes_added', 'nodes_removed', 'nodes_changed',
  'kernels_added', 'kernels_removed', 'kernels_changed', 'guards_added', 'guards_removed'
] as const;
/** A document part read loosely: the diff reads fields the schema leaves open. */
export type Loose = Record<string, any>;

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

/** An absent field of the document is null in the diff. */
export const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
