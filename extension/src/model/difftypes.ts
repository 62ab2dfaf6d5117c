/**
 * The shape of a diff of two tcexplore documents ("tcexplore-diff/1"): what computeDiff
 * (docdiff.ts) builds and the diff view reads. The types are generated from
 * tcexplore/schema/tcexplore-diff-1.schema.json into diff.generated.ts (jlpm build:types).
 */

import type { TcexploreDiffOfTwoDocumentsVersionTcexploreDiff1 } from './diff.generated';

export type {
  AccuracySide,
  CompileDiff,
  CompileRef,
  DiffSide,
  GraphDiff,
  GuardView,
  KernelChange,
  NodeChange,
  NodeView,
  OutputDiff,
  TimingSide
} from './diff.generated';

export const DIFF_MIME_TYPE = 'application/vnd.tcexplore.diff.v1+json';
export const DIFF_SCHEMA = 'tcexplore-diff/1';
export const SUMMARY_KEYS = [
  'compiles_added',
  'compiles_removed',
  'compiles_changed',
  'nodes_added',
  'nodes_removed',
  'nodes_changed',
  'kernels_added',
  'kernels_removed',
  'kernels_changed',
  'guards_added',
  'guards_removed'
] as const;
/** A document part read loosely: the diff reads fields the schema leaves open. */
export type Loose = Record<string, any>;

/** A diff as computeDiff builds it and the schema defines it. */
export type DocDiff = TcexploreDiffOfTwoDocumentsVersionTcexploreDiff1;

/** An absent field of the document is null in the diff. */
export const orNull = <T>(value: T | undefined): T | null =>
  value === undefined ? null : value;
