/* Generated from tcexplore/schema/tcexplore-diff-1.schema.json by json-schema-to-typescript
 * (jlpm build:types): edit the schema, not this file. */

/**
 * What changed from one tcexplore document (a) to another (b): compiles, graph nodes, guards, kernels, and the measurements both carry. Written by tcexplore.diff() and by the JupyterLab extension (the same algorithm).
 */
export interface TcexploreDiffOfTwoDocumentsVersionTcexploreDiff1 {
  schema: "tcexplore-diff/1";
  a: DiffSide;
  b: DiffSide;
  summary: Summary;
  compiles: CompileDiff[];
  timing: null | {
    a: TimingSide;
    b: TimingSide;
  };
  accuracy: null | {
    a: AccuracySide;
    b: AccuracySide;
  };
}
export interface DiffSide {
  label: string;
  /**
   * the document's id (or creation time and counts): finds its explorer in open notebooks
   */
  key: string;
  created: string | null;
  torch: string | null;
  /**
   * the document's own summary
   */
  summary: {
    [k: string]: number;
  };
  /**
   * the document's notebook-cell labels (file -> "cell [5]"), for naming lines; absent in diffs made before it
   */
  source_labels?: {
    [k: string]: string;
  };
}
/**
 * Counts over the compiles both documents have (an added or removed compile counts once, its contents are not itemised).
 */
export interface Summary {
  compiles_added: number;
  compiles_removed: number;
  compiles_changed: number;
  nodes_added: number;
  nodes_removed: number;
  nodes_changed: number;
  kernels_added: number;
  kernels_removed: number;
  kernels_changed: number;
  guards_added: number;
  guards_removed: number;
  [k: string]: number;
}
export interface CompileDiff {
  status: "same" | "changed" | "added" | "removed";
  a: CompileRef | null;
  b: CompileRef | null;
  /**
   * Items: a field that differs: its name, its value in a and in b
   */
  changes: {
    /**
     * file: the pair was made across files, by function and compile number; "<cache> cache key: <component>": a component of a cache key whose value differs (docdiff/cache_keys.py)
     */
    field: ("status" | "error" | "file") | string;
    a: unknown;
    b: unknown;
  }[];
  graphs: GraphDiff[];
  guards: {
    added: GuardView[];
    removed: GuardView[];
  };
  outputs: OutputDiff[];
}
export interface CompileRef {
  id: string | null;
  index: number;
  status: string | null;
  frame: {
    file?: string | null;
    line?: number | null;
    function?: string | null;
    code?: string | null;
  };
}
export interface GraphDiff {
  /**
   * identity: dynamo, aot:forward|backward|inference, post:<output code>
   */
  graph: string;
  /**
   * the explorer's key for this graph in document a (dynamo, aot:forward, post:0, ...)
   */
  a: string | null;
  b: string | null;
  /**
   * the graphs were too different to search for an alignment: nodes paired in order
   */
  approximate: boolean;
  nodes: NodeChange[];
}
export interface NodeChange {
  status: "added" | "removed" | "changed";
  a: NodeView | null;
  b: NodeView | null;
  changes: ("target" | "shape" | "dtype" | "source" | "inputs")[];
}
export interface NodeView {
  name: string | null;
  op: string | null;
  target: string | null;
  args: string[];
  shape: string[] | null;
  dtype: string | null;
  source: DiffLocation | null;
}
export interface DiffLocation {
  file?: string | null;
  line?: number | null;
  function?: string | null;
  code?: string | null;
}
export interface GuardView {
  type: string | null;
  source: string | null;
  expression: string | null;
  user_code: string | null;
}
export interface OutputDiff {
  /**
   * identity: the output code's kind (forward, backward, inference), #n from the second of a kind
   */
  output: string;
  /**
   * index of the output code in compile a
   */
  a: number | null;
  b: number | null;
  kernels: KernelChange[];
}
export interface KernelChange {
  status: "added" | "removed" | "changed";
  a: KernelRef | null;
  b: KernelRef | null;
  /**
   * unified diff of the sources (empty when only the fused nodes differ)
   */
  source_diff: string;
  /**
   * the post-grad nodes fused into each, paired through the node alignment
   */
  fused_nodes: {
    a: string | null;
    b: string | null;
  }[];
}
export interface KernelRef {
  name: string | null;
  kind: string | null;
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
