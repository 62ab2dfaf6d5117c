/* Generated from tcexplore/schema/tcexplore-1.schema.json by json-schema-to-typescript
 * (jlpm build:types): edit the schema, not this file. */

export type StepKind =
  "graph" | "eager" | "side_effect" | "resume" | "helper" | "local" | "return" | "branch" | "unread";
/**
 * whether a profiled default row's advice (its verdict's mode) held in the grid
 */
export type AdviceCheck = {
  verdict: string;
  mode: string;
  baseline: string;
  row: string;
  ratio: number;
  held: boolean;
  text: string;
} | null;
export type Bound = "memory" | "compute" | "latency";

/**
 * Everything torch.compile reported for one captured run, as parsed from its structured trace; or, with "kind": "ranks", the runs of the ranks of one distributed job side by side, with where they diverge; or, with "kind": "comparison", one run per torch.compile configuration (compare()).
 */
export interface TcexploreDocumentVersionTcexplore1 {
  schema: "tcexplore/1";
  /**
   * a random id telling documents apart (absent in documents written before it)
   */
  id?: string;
  tool?: {
    name: string;
    version: string;
  };
  created?: string;
  environment?: {
    torch: string | null;
    triton?: string | null;
    cuda?: string | null;
    gpus?: string[];
    python?: string | null;
  };
  capture?: CaptureInfo;
  summary?: Summary;
  compiles?: Compile[];
  graph_breaks?: GraphBreak[];
  /**
   * the graph-break audit: graph_breaks grouped by the line that broke, most events first, their counts adding up to summary.graph_breaks; decided once in Python (findings/graph_break_audit.py) and drawn by every view; absent in documents written before it (tcexplore.load() computes it)
   */
  graph_break_sites?: BreakSite[];
  /**
   * Compiled autograd's passes (torch._dynamo.config.compiled_autograd): each traced backward, its graph, the Dynamo compiles of that graph (ids !N/F/C) and the step that ran it. Absent where none ran.
   */
  compiled_autograd?: AutogradPass[];
  /**
   * The files this document names that are library code (standard library, installed packages, torch's and tcexplore's own package directories), decided where the frames were recorded (capture/library_files.py); any other file is the user's. Documents without it: views fold no frame.
   */
  library_files?: string[];
  unknown_events?: {
    [k: string]: number;
  };
  /**
   * frames that ran without compiled code, each with torch's reason (skip rules, disable, stance, recompile limit, no tensor ops, cache reuse) and what to do
   */
  not_compiled?: NotCompiled[];
  error?: ErrorInfo | null;
  /**
   * the document's findings, errors first (absent in documents saved before tcexplore 0.x added it: tcexplore.load() computes them)
   */
  findings?: Finding[];
  /**
   * the Overview's pipeline, Dynamo -> AOTAutograd -> Inductor -> CUDA graphs, decided once in Python (findings/pipeline.py) and drawn by every view; CUDA graphs are active only where torch recorded one; absent in documents written before it
   */
  pipeline?: PipelineStage[];
  timing?: Timing;
  accuracy?: Accuracy;
  /**
   * what measuring (timing, accuracy, divergence search, profile, a cell's eager re-run) put back after running the user's code, and what it cannot put back
   */
  isolation?: {
    restored: string[];
    not_restorable: string[];
  };
  /**
   * the grid this run is row `row` of (compare()); its rows without their documents
   */
  comparison?: {
    row?: number;
    rows: ComparisonRow[];
    advice_check?: AdviceCheck;
    /**
     * the index of the fastest row that matches eager (findings/comparison.py), or null
     */
    best_row?: number | null;
    /**
     * the row to mark as the one to pick: the best row, unless even it is slower than eager beyond the noise
     */
    winning_row?: number | null;
    /**
     * what the grid says first (findings/comparison.py)
     */
    headline?: string;
    /**
     * what the grid says under its headline
     */
    notes?: string[];
  };
  advice_check?: AdviceCheck;
  explore?: ExploreInfo;
  runtime?: {
    cudagraphs: CudaGraphInfo;
    perf_hints: unknown[];
    warnings?: PythonWarning[];
  };
  profile?: Profile;
  /**
   * absent for one run; "ranks" for a multi-rank document; "comparison" for the grid of compare()
   */
  kind?: "ranks" | "comparison";
  /**
   * the process's place in a distributed job; null when it was not in one
   */
  distributed?: null | Distributed;
  world_size?: number | null;
  /**
   * what the grid says first (findings/comparison.py); a multi-rank document's first line: how many ranks, whether they diverge, what of the inputs was not read as given
   */
  headline?: string;
  /**
   * a multi-rank document's inputs: the files looked at, those skipped with why, the ranks two files claimed and how that was settled (traces/folder.py); null when built from digests alone
   */
  inputs?: null | RankInputs;
  ranks?: RankEntry[];
  divergence?: RankDivergence[];
  /**
   * ranks whose entries are alike (same compiles, counts, breaks, collectives, errors, versions), by lowest rank; views show one column and one report per group
   */
  rank_groups?: {
    ranks: number[];
    label: string;
  }[];
  /**
   * a comparison's rows, one per configuration
   */
  rows?: ComparisonRow[];
  /**
   * explore(..., memory=True): measured peaks (eager, compiled, how), the static sections summed, CUDA-graph pools
   */
  memory?: null | MeasuredMemory;
  saved_activations?: SavedActivations;
  /**
   * a comparison's notes, shown under its headline: how its compile times were taken; what its notebook output leaves out
   */
  notes?: string[];
  /**
   * the fixes tried on this call (findings/tried.py); each finding whose fix's label matches holds its record as tried
   */
  tries?: TriedFix[];
  /**
   * the index of the fastest row that matches eager (findings/comparison.py), or null
   */
  best_row?: number | null;
  /**
   * the row to mark as the one to pick: the best row, unless even it is slower than eager beyond the noise
   */
  winning_row?: number | null;
  listing?: Listing;
  /**
   * compile id -> the lines of its own frame where it broke (its entry in its graph-break events' user stacks), decided in Python (findings/break_lines.py): the Bytecode views mark them; absent in documents written before it
   */
  break_lines?: {
    [k: string]: number[];
  };
  traced_functions?: TracedFunctions;
  source_marks?: SourceMarks;
  /**
   * Dynamo's resume function name -> how the views name it ('f after line 19'), decided in Python (findings/resume_labels.py); absent in documents written before it
   */
  resume_labels?: {
    [k: string]: string;
  };
  /**
   * the Overview's Not compiled block as both views draw it: its title, whether it opens (nothing compiled), and not_compiled's entries grouped by torch's reason, as their indices (findings/not_compiled_groups.py); null where nothing is listed; absent in documents written before it
   */
  not_compiled_groups?: {
    title: string;
    open: boolean;
    groups: number[][];
  } | null;
}
export interface CaptureInfo {
  /**
   * live: captured in-process; trace: read from a TORCH_TRACE log
   */
  source?: "live" | "trace";
  /**
   * true where the capture bypassed the FX-graph and AOTAutograd caches on request (a cold capture: tcexplore run --bypass-caches); null for a log, which does not say
   */
  bypass_caches: boolean | null;
  /**
   * the user's cache settings when the capture opened (live capture only)
   */
  caches?: {
    fx_graph_cache: boolean;
    autograd_cache: boolean;
    force_disable_caches: boolean;
  };
  events: number;
  path?: string;
  compression?: string | null;
  /**
   * where and why an imported log stops early; null when whole
   */
  partial?: string | null;
  log?: {
    [k: string]: number;
  };
  /**
   * what this document cannot hold because its source does not record it, or a stated size bound keeps out (a big log's graphs past DETAIL_LIMIT); not: found empty
   */
  unavailable?: Unavailable[];
  unread?: Unread;
}
export interface Unavailable {
  field: string;
  reason: string;
}
/**
 * what could not be read, each costing only itself (tcexplore/common/contained.py): events damaged in the log or whose handler raised, document sections and findings that raised
 */
export interface Unread {
  /**
   * trace events left out: damaged in the log (bad_json, bad_envelope) or not read (handler); summary.unread_events
   */
  events: number;
  /**
   * entries per reason: bad_json, bad_envelope, handler, section, finding
   */
  counts: {
    [k: string]: number;
  };
  /**
   * the first entries, whole
   */
  items: UnreadItem[];
}
export interface UnreadItem {
  reason: "bad_json" | "bad_envelope" | "handler" | "section" | "finding";
  /**
   * the event kind, or the section's or finding's name
   */
  kind: string | null;
  compile: string | null;
  /**
   * the log line of the event
   */
  line: number | null;
  error: string;
  /**
   * the first characters of what was read
   */
  excerpt: string | null;
}
export interface Summary {
  graphs: number;
  graph_breaks: number;
  recompiles: number;
  output_codes: number;
  kernels: number;
  guards: number;
  unmapped_nodes: number;
  /**
   * failed compiles, and failed measurements (explore.error, memory.error, accuracy.divergence_error)
   */
  failures: number;
  /**
   * trace events that could not be read (capture.unread.events); absent in documents made before it
   */
  unread_events?: number;
}
export interface Compile {
  /**
   * torch's frame/compile id; a compile after torch.compiler.reset() (which numbers compiles from 0/0 again) is g<generation>:<torch's id>
   */
  id: string;
  /**
   * 1, then one more after each torch.compiler.reset() that numbered a compile again, as the events' order tells (absent in documents written before it)
   */
  generation?: number;
  frame_id?: number | null;
  frame_compile_id?: number | null;
  /**
   * this compile's place among this document's compiles of its frame (0 the first), where frame_compile_id counts the frame's compiles in the whole process: a diff pairs compiles by it (absent in documents written before it)
   */
  frame_compile_index?: number;
  compiled_autograd_id?: number | null;
  attempts?: number;
  frame: Location | null;
  /**
   * skipped: torch skipped the frame after a graph break it could not handle (a break in a loop): the frame ran eagerly, and error holds torch's reason
   */
  status: "ok" | "cache_hit" | "failed" | "skipped" | "no_graph" | "incomplete";
  error: ErrorInfo | null;
  /**
   * present when this compile ran without what capture() set (in a thread the capture did not cover): which settings it lacked, and the threads it ran in
   */
  without_capture_settings?: {
    settings: ("provenance" | "cache_bypass")[];
    threads: string[];
  };
  restart_reasons?: string[];
  /**
   * present when Dynamo restarted this compile after an attempt had output a graph: each such attempt's Dynamo graph, oldest first (dynamo_graph is the last attempt's); reason: the restart's, where torch's set of restart reasons has one only
   */
  restarted_attempts?: RestartedAttempt[];
  dynamo_graph: Graph | null;
  guards: Guard[];
  guards_text?: string | null;
  recompile_reasons: Recompile[][];
  /**
   * shape symbols torch created for this compile (create_symbol; create_unbacked_symbol ones carry unbacked: true, no source, the user line that made them)
   */
  symbols: {
    [k: string]: unknown;
  }[];
  symbolic_guards?: {
    [k: string]: unknown;
  }[];
  aot_graphs: {
    [k: string]: Graph;
  };
  post_grad_graphs: Graph[];
  output_codes: OutputCode[];
  cache: {
    cache: "fx_graph" | "aotautograd";
    result: "hit" | "miss" | "bypass";
    /**
     * torch's cache key components, parsed at capture from its '[hash] name: value' lines, bounded
     */
    key_components?: {
      name: string;
      hash: string;
      /**
       * bounded; the hash tells a longer value's change
       */
      value: string;
    }[];
    /**
     * component lines not in torch's '[hash] name: value' form (not kept)
     */
    key_components_unread?: number;
    /**
     * older documents only: the component lines unparsed; tcexplore.load() parses them into key_components
     */
    components?: string[];
    /**
     * how many components torch listed, when there were more than the document keeps
     */
    components_truncated?: number;
    time_saved_ms?: number;
    /**
     * a hit on an entry that an earlier explore() or %%tcompile cell of this process wrote (tcexplore compiled the code again, where the program would not have): not the user's warm start
     */
    earlier_exploration?: boolean;
  }[];
  /**
   * a compile torch served from its caches: what that shows and what a hit could not show, decided by findings/cache.py (absent for a compile that hit nothing)
   */
  cache_hit?: {
    note: string;
    lacks?: string[];
    /**
     * the id of the compile of this document that missed the same key (wrote the entry)
     */
    cold?: string | null;
  };
  phases: Phase[];
  metrics: {
    [k: string]: unknown;
  } | null;
  backward_metrics?: {
    [k: string]: unknown;
  } | null;
  triton_kernel_info?: unknown[];
  artifacts: {
    [k: string]: number;
  };
  cudagraphs?: CudaGraphInfo;
  perf_hints?: {
    level: string;
    message: string;
  }[];
  /**
   * autotuning choices torch attached to compile phases: the phase, and its autotune_choices_stats as torch logged them
   */
  autotuning?: {
    phase: string | null;
    stats: unknown;
  }[];
  warnings?: PythonWarning[];
  /**
   * per Inductor graph, the collectives in the order Inductor scheduled them (the inductor_collective_schedule artifact)
   */
  collective_schedules?: string[][];
  /**
   * the call path that made this compile (dynamo_start's stack), outermost first
   */
  stack?: Location[];
  bytecode?: Bytecode | null;
  /**
   * on a resume function's compile: the graph break it continues (the latest before it whose frame names it)
   */
  resume_of?: ResumeOf | null;
  tracing?: Tracing | null;
  memory?: CompileMemory | null;
  /**
   * a resume function's compile: its frame's function name with the break lines it embeds masked, by which diffs pair a frame that moved (capture/parsers/identity.py); absent otherwise
   */
  unmoved_function?: string;
  /**
   * config values in force for this compile, as torch dumped them with its metrics ('dynamo.assume_static_by_default': false, ...): those a finding's fix may name and what dynamic=True sets (capture/handlers/metrics.py KEPT_CONFIG)
   */
  config?: {
    [k: string]: boolean | number | string | null;
  };
}
export interface Location {
  file?: string | null;
  line?: number | null;
  function?: string | null;
  code?: string | null;
  /**
   * a guard's location that is torch's own line (torch traced no user frame when it added the guard)
   */
  torch_own?: boolean;
  /**
   * what torch says of a guard's location (e.g. that it is the first use of the value, not the guard's cause)
   */
  note?: string;
  /**
   * a compiled frame's function as the views title it: a resume function Dynamo generated named as the user's function after its graph break (findings/guard_lines.py)
   */
  shown_name?: string;
}
export interface ErrorInfo {
  type: string | null;
  message: string | null;
  file?: string | null;
  line?: number | null;
  traceback?: string;
}
export interface RestartedAttempt {
  attempt: number;
  graph: Graph;
  reason: string | null;
  /**
   * the reason in one line as the views name it (an exception's class by its name alone), read at capture; absent in documents written before it
   */
  reason_line?: string | null;
}
export interface Graph {
  text: string;
  truncated: boolean;
  chars?: number;
  nodes: GraphNode[];
  nodes_truncated: boolean;
  /**
   * present when invoke_subgraph nodes call nested compile regions (torch.compiler.nested_compile_region): each subgraph once, with its nodes and the nodes that invoke it, in order
   */
  subgraphs?: InvokedSubgraph[];
}
export interface GraphNode {
  name: string;
  op: "placeholder" | "call_function" | "call_method" | "call_module" | "get_attr" | "output";
  target: string;
  args: string[];
  users: string[];
  meta?: {
    [k: string]: unknown;
  } | null;
  source?: Location | null;
  code?: string;
  kernels?: string[];
  /**
   * an invoke_subgraph node of a post-grad graph: the wrapper line (1-based, in its output code) of the call of the subgraph's function that runs it
   */
  subgraph_call?: number;
  /**
   * a runtime assert (_assert_scalar) of a post-grad graph: the wrapper line (1-based, in its output code) of the check of the same expression
   */
  check?: number;
  /**
   * an input or attribute named after a module's parameter or buffer (Dynamo's l_self_modules_blocks_modules_0_..._parameters_weight_): that module's path, [] for the root; read at capture (capture/parsers/fx_text.py), absent otherwise
   */
  module?: string[];
  /**
   * a placeholder's target as diffs compare it, without FX's _N numbering (capture/parsers/identity.py); absent in documents written before it
   */
  target_key?: string;
}
export interface InvokedSubgraph {
  name: string;
  invoked_by: string[];
  nodes: GraphNode[];
  nodes_truncated: boolean;
}
export interface Guard {
  type: string;
  source: string | null;
  expression: string;
  user_code?: string | null;
  user_location?: Location | null;
  /**
   * the source and expression as diffs compare them, object ids, addresses and installed globals' counters masked (capture/parsers/identity.py); null where the guard holds none; absent in documents written before it
   */
  masked?: {
    source: string;
    expression: string;
  } | null;
  user_line?: UserLine | null;
}
/**
 * the user's line a guard (or a recompile's failed guard) is shown at, decided in findings/guard_lines.py: the guard's own location when it is the user's, else the compiled frame's (frame: true; the guard's own location, torch's or a library's, is library_line)
 */
export interface UserLine {
  file: string;
  line: number | null;
  function: string | null;
  code?: string | null;
  /**
   * as the views write it: cell [5], line 3 or name.py:3
   */
  where: string;
  frame: boolean;
  library_line?: string | null;
}
export interface Recompile {
  failed_compile_id: string | null;
  guard: string;
  expected?: string | null;
  actual?: string | null;
  user_code?: string | null;
  user_location?: Location | null;
  details?: string[];
  user_line?: UserLine | null;
}
export interface OutputCode {
  text: string;
  truncated?: boolean;
  chars?: number;
  aot_id?: string | null;
  kind: "forward" | "backward" | "inference" | "unknown";
  path?: string | null;
  post_grad_graph: number;
  kernels: Kernel[];
  provenance?: {
    [k: string]: unknown;
  } | null;
  unmapped_nodes: string[];
  /**
   * compute nodes no kernel computes because nothing uses their value (Inductor drops them)
   */
  dead_nodes?: string[];
  /**
   * ops of namespaces other than aten/prims/inductor the code calls, and what registered them (live capture only)
   */
  custom_ops?: CustomOp[];
  /**
   * why nodes are unmapped here when torch recorded no kernel -> node mapping (provenance null), as every view shows it (findings/unmapped.py); absent otherwise
   */
  unmapped_reason?: string;
  /**
   * the wrapper's calls of nested compile regions' functions, in order: the subgraph, the line (1-based), the statement and the invoke_subgraph node it runs (null where the calls and nodes do not pair one to one)
   */
  subgraph_calls?: SubgraphCall[];
  /**
   * the runtime asserts the wrapper makes (if not (...): raise RuntimeError(...)): torch's expression, the line (1-based) and the condition as written
   */
  checks?: WrapperCheck[];
}
export interface Kernel {
  name: string;
  /**
   * the name, numbered in order where it repeats in its output code (an extern call made several times: extern_kernels.mm#2), as Document.kernel() takes it; absent in documents written before it
   */
  label?: string;
  kind: "cpp" | "triton" | "extern" | "cuda" | "halide" | "rocm";
  triton_kind?: string | null;
  source: string;
  line?: number;
  handles?: string[];
  launches?: number;
  /**
   * its launch statements in the wrapper, as emitted, in order
   */
  calls?: string[];
  /**
   * each launch of it in the wrapper, in order: the line of the output code that makes it and the post-grad nodes that launch computes (an extern call is made from one line; Inductor defines identical generated code once and launches it from several); absent in documents written before it
   */
  launch_sites?: LaunchSite[];
  source_nodes?: string[];
  aten_ops: string[];
  post_grad_nodes: string[];
  user_lines: Location[];
  mapping: "provenance" | "kernel_comment" | "none";
  /**
   * the nested compile regions' functions in the wrapper that launch this kernel (null: the wrapper's own call()); its post_grad_nodes are nodes of those subgraphs. Empty or absent: only call() launches it
   */
  subgraphs?: (string | null)[];
  /**
   * the long hex hashes the source holds, masked when diffs compare it (capture/parsers/identity.py); absent in documents written before it
   */
  hashes?: string[];
  /**
   * an extern call's source as diffs compare it (its name, hashes and buffer numbers masked), cut into pieces, each a name (which diffs read through the node alignment) or the text between (capture/parsers/identity.py); absent in documents written before it
   */
  tokens?: {
    text: string;
    name: boolean;
  }[];
}
export interface LaunchSite {
  /**
   * 1-based line of the output code
   */
  line: number;
  post_grad_nodes: string[];
}
export interface CustomOp {
  op: string;
  module: string | null;
  file?: string;
  schema?: string;
  /**
   * its Python implementation, for an op the captured program (__main__) defines
   */
  source?: string;
}
export interface SubgraphCall {
  subgraph: string;
  line: number;
  call: string;
  node: string | null;
}
export interface WrapperCheck {
  expr: string;
  line: number;
  condition: string;
}
export interface Phase {
  name: string | null;
  start_us?: number | null;
  duration_ms: number | null;
  children: Phase[];
  data?: {
    [k: string]: unknown;
  };
}
export interface CudaGraphInfo {
  summary?: null | CudaGraphSummary;
  partitions: CudaGraphPartition[];
  skips: CudaGraphSkip[];
  recordings: number;
  rerecordings?: number;
  messages?: string[];
  fast_path_missed?: FastPathMissed;
}
export interface CudaGraphSummary {
  partitions: number;
  cudagraphable: number;
  non_cudagraphable: number;
}
export interface CudaGraphPartition {
  index: number;
  nodes: number;
  cudagraphable: boolean;
  /**
   * the rest of Inductor's line about the partition
   */
  detail?: string;
  /**
   * each op with the reason it is (not) CUDA-graphable (Inductor's DEBUG lines)
   */
  ops?: CudaGraphOp[];
}
export interface CudaGraphOp {
  op: number;
  reason: string;
  ir: string;
  fx: string;
  user_stack: Location[];
}
export interface CudaGraphSkip {
  reason: string;
  /**
   * where torch found the reason (its 'Found from' stack)
   */
  user_stack: Location[];
}
export interface FastPathMissed {
  message: string;
  explanation: string;
  fix: string;
}
/**
 * a Python warning shown while capturing (warnings.showwarning)
 */
export interface PythonWarning {
  category: string;
  message: string;
  file?: string | null;
  line?: number | null;
  [k: string]: unknown;
}
/**
 * The frame Dynamo transformed: its original and modified bytecode, a reading of the modified code derived from its instructions, and its jumps into resume functions.
 */
export interface Bytecode {
  /**
   * bytecode_hook: torch's bytecode hook during a live capture; trace_artifact: the *_ORIGINAL_BYTECODE/*_MODIFIED_BYTECODE artifacts torch writes for resume functions
   */
  source: "bytecode_hook" | "trace_artifact";
  original: Disassembly;
  modified: Disassembly;
  /**
   * the side-effect sources torch says the modified code replays (torch 2.13+ hook), else null
   */
  side_effects?: string[] | null;
  reading: {
    steps: ReadingStep[];
    complete: boolean;
  };
  resume_jumps: ResumeJump[];
}
/**
 * A code object disassembled by dis (dis.Bytecode(code).dis(); offsets shown on Python 3.13+), with its instructions read back.
 */
export interface Disassembly {
  text: string;
  truncated: boolean;
  chars?: number;
  instructions: Instruction[];
}
/**
 * One instruction as dis prints it.
 */
export interface Instruction {
  offset: number | null;
  line: number | null;
  starts_line?: boolean;
  opname: string;
  arg?: number | null;
  argrepr?: string | null;
  /**
   * the jump label dis prints (L1, or the offset a >> marks)
   */
  label?: string | null;
  /**
   * the label a jump goes to
   */
  target?: string | null;
  /**
   * an instruction of a %%tcompile cell's wrapper (the names it starts unbound, its return of the cell's values): not the user's code
   */
  wrapper?: boolean;
}
export interface ReadingStep {
  kind: StepKind;
  text: string;
  line?: number | null;
  /**
   * indexes into modified.instructions this step was read from
   */
  instructions: number[];
  /**
   * the compiled graph's global, in full
   */
  graph?: string;
  /**
   * the resume function's global (__resume_at_<offset>_<n>)
   */
  resume?: string;
  offset?: number;
  bound?: string;
  returns?: boolean;
  target?: string | null;
  args?: string[];
  /**
   * a step of a %%tcompile cell's wrapper (its return of the cell's values): not the user's code
   */
  wrapper?: boolean;
}
export interface ResumeJump {
  global: string;
  /**
   * the instruction of the original code where the resume function goes on
   */
  offset: number;
  line: number | null;
  /**
   * the resume function torch names after the frame's line that broke
   */
  function: string | null;
  /**
   * index into graph_breaks: this compile's break
   */
  graph_break: number | null;
  /**
   * the resume function's compiles that continue this compile's break
   */
  compiles: string[];
  /**
   * several jumps of this compile lead to resume functions of one name; torch does not say which of them each compile is
   */
  shared_name: boolean;
}
export interface ResumeOf {
  graph_break: number;
  compile_id: string | null;
  file?: string | null;
  line?: number | null;
}
/**
 * How long Dynamo traced each user function of the compile.
 */
export interface Tracing {
  /**
   * dynamo_profiler: torch's Dynamo profiler (torch 2.13+, where the user switched it on), every traced function; chromium_events: the bytecode_tracing phases, the frame's function with everything it inlined
   */
  source: "dynamo_profiler" | "chromium_events";
  total_ms: number | null;
  functions: TracedFunction[];
}
export interface TracedFunction {
  function: string | null;
  file: string | null;
  line: number | null;
  cumtime_ms: number;
  tottime_ms?: number | null;
  calls?: number | null;
  depth?: number | null;
}
/**
 * What a compile keeps for backward, recomputes, and what Inductor's wrappers allocate: read from the AOT forward/backward graphs and the output code (capture/static_memory.py)
 */
export interface CompileMemory {
  saved_for_backward: null | {
    /**
     * distinct storages (a saved view counts its base once); sized ones only
     */
    bytes: number;
    /**
     * storages with a symbolic size
     */
    unsized: number;
    storages: number;
    tensors: SavedTensor[];
    bytes_by_kind: {
      activation: number;
      parameter: number;
      input: number;
      [k: string]: number;
    };
    lines: SavedLine[];
  };
  recomputed:
    | null
    | {
        node: string;
        target: string;
        user_location: {
          file: string;
          line: number;
          function: string;
        } | null;
        bytes: number | null;
      }[];
  activation_memory_budget: number | null;
  buffers: OutputBuffers[];
}
export interface SavedTensor {
  node: string;
  target: string | null;
  shape: string[];
  dtype: string;
  bytes: number | null;
  kind: "activation" | "parameter" | "input";
  /**
   * the forward node whose storage it is (its base, for a view)
   */
  storage: string;
  user_location: {
    file: string;
    line: number;
    function: string;
  } | null;
}
export interface SavedLine {
  file: string;
  line: number;
  function: string;
  bytes: number;
  /**
   * of the line's saved activations, those whose size is symbolic (dynamic shapes)
   */
  symbolic?: number;
  nodes: string[];
  code?: string | null;
}
export interface OutputBuffers {
  output_code: number;
  kind: string | null;
  allocated_bytes: number;
  without_reuse_bytes: number;
  planned_peak_bytes: number;
  buffers: number;
  reuses: number;
  functions: {
    name: string;
    line: number;
    buffers: {
      name: string;
      shape: string[];
      dtype: string;
      device: string;
      bytes: number | null;
      line: number;
      freed_line: number | null;
    }[];
    reuses: {
      name: string;
      reuses: string;
      bytes: number | null;
      line: number;
    }[];
    planned_peak_bytes: number;
    allocated_bytes: number;
  }[];
}
export interface GraphBreak {
  /**
   * torch's reason whole, as tlparse shows it; split once at capture into message, generic, details
   */
  reason: string;
  /**
   * the specific line of the reason (after the generic one); a document saved before it was stored gets it on load
   */
  message?: string;
  /**
   * the reason's first line when it is torch's generic 'Encountered graph break when attempting to trace ...'
   */
  generic?: string | null;
  /**
   * the reason's lines after the message
   */
  details?: string | null;
  file: string | null;
  line: number | null;
  explanation?: string | null;
  hints: string[];
  link?: string | null;
  /**
   * torch's 'Developer debug context' line: what Dynamo was looking at
   */
  developer_context?: string | null;
  user_stack: Location[];
  compile_id: string | null;
  attempt?: number;
  /**
   * torch's words that it skipped the frame after this break (it could not go on after it: a break in a loop); the message is then the break it met
   */
  skipped_frame?: string | null;
}
/**
 * one line where graph breaks happened, with every break event that reached it (findings/graph_break_audit.py)
 */
export interface BreakSite {
  file: string | null;
  line: number | null;
  /**
   * 'cell [5], line 3' for a labelled cell, else 'path:line'
   */
  where: string;
  function: string | null;
  code: string | null;
  library: boolean;
  /**
   * break events at this line (torch reports one per compile that reaches it)
   */
  count: number;
  /**
   * indices of its events in graph_breaks
   */
  events: number[];
  /**
   * each event's compile id, in event order
   */
  compiles: (string | null)[];
  /**
   * the frames Dynamo compiled that reached the line, by function
   */
  frames: BreakFrame[];
  /**
   * torch's reasons, most events first
   */
  reasons: BreakReason[];
  /**
   * the distinct user call paths that reached it, most events first
   */
  paths: CallPath[];
  /**
   * the resume functions Dynamo made to go on after the break, with their compiles
   */
  resume_functions: {
    name: string;
    compiles: string[];
  }[];
  /**
   * why the site counts what it counts, as the views show it
   */
  count_note: string;
}
export interface BreakFrame {
  function: string | null;
  file: string | null;
  line: number | null;
  count: number;
  compiles: (string | null)[];
}
export interface BreakReason {
  message: string;
  count: number;
  explanation: string | null;
  hints: string[];
  link: string | null;
  generic: string | null;
  details: string | null;
  developer_context: string | null;
  /**
   * torch's developer context as the views show it (generic line, debug context, details), file names relabelled, decided in Python; absent in documents written before it
   */
  context?: string | null;
  /**
   * torch's words that it skipped the frame after this break, which ran eagerly (capture/parsers/graph_breaks.py)
   */
  skipped_frame?: string | null;
  /**
   * how many of the reason's events torch skipped the frame after
   */
  skipped_frames?: number;
}
export interface CallPath {
  count: number;
  /**
   * outermost frame first
   */
  stack: StackFrame[];
}
export interface StackFrame {
  file: string | null;
  line: number | null;
  function: string | null;
  code: string | null;
  /**
   * 'cell [5], line 3' for a labelled cell, else 'path:line'
   */
  where: string;
  /**
   * a library file (the document's library_files): views fold it
   */
  library: boolean;
}
/**
 * One pass of compiled autograd (tlparse's !N/-/-): the backward graph it captured before Dynamo traced it, the sizes it made symbols of, and where it ran.
 */
export interface AutogradPass {
  id: number;
  graph: Graph | null;
  symbols: {
    [k: string]: unknown;
  }[];
  symbolic_guards: {
    [k: string]: unknown;
  }[];
  /**
   * the ids of the Dynamo compiles of this pass's graph, in order
   */
  compiles: string[];
  /**
   * the compile id of the compiled step whose frame ran this backward (the latest compile of that frame before the pass), or null where the stack names none
   */
  step: string | null;
  /**
   * the line of that frame that ran the backward (loss.backward())
   */
  call: Location | null;
}
export interface NotCompiled {
  function: string;
  file: string;
  line: number | null;
  category: "skipfiles" | "disabled" | "stance" | "recompile_limit" | "no_tensor_ops" | "cache" | "other";
  reason: string;
  /**
   * the function's qualified name (TransformerEncoderLayer.forward), read from its source file at capture; absent or null where the file was not there
   */
  qualname?: string | null;
  advice: string;
}
/**
 * one answer to a 'why' question, decided once when the document is built (tcexplore/findings/): the HTML report and the extension only draw the list
 */
export interface Finding {
  /**
   * graph_break, recompile, dynamic_shape, cache, nothing_compiled, cudagraph_skip, compile_time, accuracy, timing, profile, run_view, error, failed_compile, failed_measurement, unmapped, capture_settings, unread, all_clear, ...
   */
  kind: string;
  severity: "error" | "warning" | "info" | "ok";
  title: string;
  count: number;
  locations: {
    file: string;
    line: number | null;
    function: string | null;
  }[];
  /**
   * links: a tab of the explorer (and the report's matching section), with a compile id, a source file and line, an output index
   */
  evidence: FindingEvidence[];
  advice: string | null;
  details?: string[];
  shape?: ShapeInfo;
  fix?: null | Fix;
  tried?: TriedFix;
  recompiled?: RecompiledFunction;
}
export interface FindingEvidence {
  tab: string;
  label: string;
  compile?: string | null;
  file?: string;
  line?: number;
  output?: number;
}
/**
 * dynamic_shape: the size in user terms, its symbol and range, its value (as torch logged it), the value change that made it dynamic, the lines that guard or specialize it; an unbacked symbol (from nonzero(), .item()) is named by its symbol, with the line that made it (made_at) and the runtime asserts that check it
 */
export interface ShapeInfo {
  /**
   * the size in the user's words, e.g. x.size(0)
   */
  name: string;
  symbol: string;
  range: string;
  compile: string | null;
  value?: unknown;
  changed?: null | {
    from: string;
    to: string;
  };
  unbacked?: boolean;
  guards: {
    file: string | null;
    line: number | null;
    function: string | null;
    expr: string;
    kind: "guard" | "specialized" | "runtime_assert";
    compile?: string | null;
    /**
     * a runtime assert: the output code (its kind) and the wrapper line that checks it, or null where the wrapper has no such check
     */
    check?: null | {
      output: string | null;
      line: number;
    };
  }[];
  /**
   * an unbacked symbol: the user line that made it
   */
  made_at?: Location | null;
}
/**
 * a finding's fix, decided with its advice (tcexplore/findings/fixes.py): the setting the advice names, which try_fixes can run and measure, or why the advice cannot be tried (a change to the code)
 */
export interface Fix {
  setting: null | FixSetting;
  /**
   * the setting as the views and sentences name it: capture_scalar_outputs=True, dynamic=True, caches on
   */
  label: string | null;
  /**
   * why the advice is not tried (it needs a code change, or nothing avoids it)
   */
  not_tried: string | null;
}
export interface FixSetting {
  /**
   * a torch.compile argument, a config value of torch._<module>.config, a capture()/explore() option (bypass_caches: caches on), or a guard_filter_fn helper of torch.compiler passed as options={"guard_filter_fn": ...} (value: its dotted name)
   */
  kind: "compile_kwarg" | "config" | "capture" | "guard_filter";
  /**
   * dynamo, inductor or functorch for a config value
   */
  module: string | null;
  name: string;
  /**
   * the value to set
   */
  value: boolean | number | string;
}
/**
 * a fix tried on the user's call (explore(try_fixes=True), %%tcompile --try-fixes, the extension's Try it): before and after, explored alike in isolation (measure/try_fixes.py), and what it showed (findings/tried.py)
 */
export interface TriedFix {
  label: string;
  setting: null | FixSetting;
  before: null | TrySide;
  after: null | TrySide;
  /**
   * about 95% interval of the speedup (before's time per call over after's), timing's bootstrap over the paired samples
   */
  interval: number[] | null;
  /**
   * faster or slower where the interval excludes 1, same where it holds it
   */
  speed: "faster" | "slower" | "same" | null;
  ratio: number | null;
  /**
   * fewer graphs, breaks or recompiles, faster beyond the interval, or (for the setting made for it) compile time, peak memory or accuracy better; false when outputs that matched now differ
   */
  helped: boolean;
  error: null | ErrorInfo;
  /**
   * what the views show: Tried: capture_scalar_outputs=True — 1 graph (was 3), ... or Tried dynamic=True: did not help (...)
   */
  sentence: string;
}
/**
 * one side of a try (the call as the user compiled it, or with the fix): its exploration's counts and figures
 */
export interface TrySide {
  graphs: number | null;
  graph_breaks: number | null;
  recompiles: number | null;
  /**
   * torch's compile time, all compiles of the side (their phases)
   */
  compile_s: number | null;
  /**
   * time per call, the two sides timed in alternation
   */
  median_ms: number | null;
  /**
   * the compiled call's peak above what was allocated before it (when memory was measured)
   */
  peak_bytes: number | null;
  /**
   * the side's outputs (and gradients) match eager
   */
  outputs_match: boolean | null;
}
/**
 * a recompile finding's group: the function (Dynamo frame) compiled again, how often, its compiles and every guard that failed with how often (findings/recompile.py); absent in documents written before it
 */
export interface RecompiledFunction {
  function: string;
  frame: null | {
    file: string;
    line: number | null;
    function: string | null;
  };
  count: number;
  compiles: string[];
  guards: {
    guard: string;
    count: number;
  }[];
}
export interface PipelineStage {
  name: string;
  /**
   * what the stage made here, as the views show it ('3 graphs', '0 graphed compiles')
   */
  counts: string[];
  /**
   * compile time the stage took over every compile; null where none is recorded
   */
  seconds: number | null;
  /**
   * false: the stage did nothing in this document
   */
  active: boolean;
}
export interface Timing {
  eager: TimingStats;
  compiled: TimingStats;
  compile_s: number;
  speedup: number | null;
  /**
   * about 95% interval of the speedup from the paired samples (measure/timing.py); null with no samples, absent in documents written before it
   */
  speedup_interval?: null | [number, number];
  break_even_calls: number | null;
  noisy: boolean;
  /**
   * the time budget each side was given, in seconds
   */
  budget_s?: number | null;
  /**
   * the machine's state over the timing samples and whether it was busy (measure/machine.py); absent in documents written before it
   */
  machine?: MachineState | null;
  verdict?: TimingVerdict;
  device: "cpu" | "cuda";
}
export interface TimingStats {
  median_ms: number;
  iqr_ms: number;
  /**
   * first quartile of the samples (absent in documents written before it)
   */
  q1_ms?: number;
  /**
   * third quartile of the samples (absent in documents written before it)
   */
  q3_ms?: number;
  min_ms: number;
  max_ms?: number;
  samples: number;
  inner: number;
  warmup_calls?: number;
  noisy: boolean;
  device_median_ms?: number | null;
}
export interface MachineState {
  busy: boolean;
  reasons: string[];
  cores: number;
  torch_threads: number;
  load_average: number | null;
  /**
   * cores other processes used on this process's CPUs, from /proc/stat; null where unreadable
   */
  others_cores: number | null;
  process_cores: number;
  throttled_share: number | null;
  window_s: number;
  source: string;
  fit_threads?: number | null;
  gpu?: {
    /**
     * processes with work on this GPU besides this one
     */
    others: number;
    pids: number[];
    own_pid_listed?: boolean;
    utilization_percent?: number | null;
    source: string;
  };
}
/**
 * how far to trust the timing, decided once in Python (findings/timing.py timing_verdict) and read by every view: severity, headline (with nothing compiled: eager against eager), what is noisy, why the machine was busy, advice, and the lines shown beside the chart; absent in documents written before it (and measurement, machine, first_call in those written before they were stored)
 */
export interface TimingVerdict {
  severity: "ok" | "warning";
  headline: string;
  noise?: string | null;
  busy?: string | null;
  advice?: string | null;
  /**
   * noisy or steady, with the rule ('steady (both IQRs within 10% of their medians)')
   */
  measurement?: string;
  /**
   * the machine's figures over the samples in one line, or null where not measured
   */
  machine?: string | null;
  /**
   * what the first call's time is: 'first call (compile + run)', or with nothing compiled 'first call (nothing compiled)'
   */
  first_call?: string;
  /**
   * the headline in a few words, where a list of documents names it ('1.58× faster', 'no clear difference'); absent in documents written before it
   */
  short?: string;
  /**
   * the calls the compile takes to pay back, whole calls ('508 calls'), or never; absent in documents written before it
   */
  break_even?: string;
}
export interface Accuracy {
  ok: boolean;
  /**
   * one row per leaf of the output, walked structurally (pytree containers, dataclasses, plain objects' public attributes such as a Hugging Face cache's layers[i].keys), rows bounded (see leaf_diff kind 'truncated')
   */
  outputs: LeafDiff[];
  inputs_after_call: LeafDiff[];
  /**
   * a training step's gradients, eager against compiled, each from one step on the same saved state: one row per parameter (or tensor argument) whose .grad either run changed, path its name ('model.fc.weight'); absent when neither run changed a gradient
   */
  gradients?: LeafDiff[];
  /**
   * a training step's state after it, eager against compiled, each from one step on the same saved state: one row per parameter, buffer, tensor the function reaches (not its arguments) or optimizer state tensor ('opt.state[model.fc.weight].exp_avg') that either run changed or made; absent when neither run changed any
   */
  state_after_call?: LeafDiff[];
  first_divergence: null | FirstDivergence;
  reference?: Reference;
  divergence_error?: ErrorInfo;
  /**
   * why the outputs differ, where known: 'random' (the first divergence is at a random op: eager and Inductor draw different random numbers), 'random_in_graph' (no diverging node was found, and the captured graphs hold random ops)
   */
  cause?: "random" | "random_in_graph";
  /**
   * with cause: the random operators involved
   */
  random_ops?: string[];
  /**
   * with cause: how to pass Inductor's fallback_random option where this run was made (explore() or %%tcompile); null when the backend is not Inductor
   */
  fallback_random_option?: string | null;
  verdict?: AccuracyVerdict;
}
/**
 * one compared leaf; 'ok' false only for a mismatch (a leaf not compared is ok)
 */
export interface LeafDiff {
  /**
   * how the leaf is reached from the output, as Python spells it ('logits', 'cache.layers[0].keys', '[0]', a cell's name); '' for the output itself
   */
  path: string;
  /**
   * tensor: compared numerically; value: a number (floats within float32 tolerances), string, None, bool, dtype, device or enum compared by value; not_compared: anything else (see type); structure_mismatch: children present on one side only (expected: missing in compiled, actual: extra); truncated: the rows left out (the last row)
   */
  kind: "tensor" | "value" | "not_compared" | "type_mismatch" | "structure_mismatch" | "truncated";
  ok: boolean;
  /**
   * value, not_compared: the leaf's Python type
   */
  type?: string;
  /**
   * not_compared: why a container was not walked (a cycle, nesting too deep)
   */
  reason?: string;
  /**
   * null when not computed, or infinite (an element differs where eager is 0)
   */
  max_rel_err?: number | null;
  /**
   * truncated: compared leaves not listed
   */
  omitted?: number;
  /**
   * truncated: mismatching leaves among those not listed
   */
  omitted_mismatches?: number;
  /**
   * truncated: true when the walk stopped at its leaf limit, leaving the rest not compared
   */
  limit_reached?: boolean;
  /**
   * tensor: eager's shape
   */
  shape?: number[];
  /**
   * tensor: eager's dtype
   */
  dtype?: string;
  shape_match?: boolean;
  dtype_match?: boolean;
  rtol?: number;
  atol?: number;
  /**
   * tensor: null when not computed
   */
  max_abs_err?: number | null;
  /**
   * tensor: elements outside the tolerances; null when not computed
   */
  mismatched?: number | null;
  numel?: number;
  /**
   * tensor: elements NaN or infinite on one side only
   */
  nan_inf_mismatch?: number;
  /**
   * what eager gave, as text (values, types, children missing in compiled)
   */
  expected?: string;
  /**
   * what compiled gave, as text
   */
  actual?: string;
  /**
   * how the leaf's label is shown (findings/accuracy.py): match, mismatch (a failure), random (differs because eager and Inductor draw different random numbers: not a failure), other (not compared, the truncation row); absent in documents written before it
   */
  state?: "match" | "mismatch" | "random" | "other";
  /**
   * the leaf's verdict in words ('match', 'differs', 'differs (random ops)', 'not compared'), the same in every view
   */
  label?: string;
}
export interface FirstDivergence {
  /**
   * random operators (torch.Tag.nondeterministic_seeded) the node runs, traced to ATen, e.g. 'aten.randn.default'
   */
  random_ops?: string[];
  /**
   * null when infinite (an element differs where eager is 0)
   */
  max_rel_err?: number | null;
  /**
   * what diverges at the node: the graph's outputs, or (outputs agreeing) the gradients of its inputs, backward through the node
   */
  of?: "outputs" | "gradients";
  /**
   * with of 'gradients': the graph input (placeholder) whose gradient diverges most, e.g. a parameter 'l_self_modules_fc_parameters_weight_'
   */
  gradient_of?: string;
  /**
   * index of the captured graph that holds the node
   */
  graph_index?: number;
  node: string;
  op: string;
  target: string;
  source: Location | null;
  kernels: string[];
  max_abs_err?: number | null;
  /**
   * prefixes of the graph compiled and compared to find the node
   */
  probes?: number;
}
/**
 * reference="fp64": eager and compiled each held against a float64 eager run
 */
export interface Reference {
  available: boolean;
  /**
   * not available: why (the float64 run raised)
   */
  reason?: string;
  outputs?: ReferenceRow[];
}
export interface ReferenceRow {
  path: string;
  /**
   * max abs error of eager against float64
   */
  eager_err: number;
  /**
   * max abs error of compiled against float64
   */
  compiled_err: number;
  /**
   * compiled's error against eager's
   */
  compiled_vs_eager: "same" | "closer" | "farther";
}
/**
 * the accuracy check's headline, decided once in Python (findings/accuracy.py) for every view and the accuracy finding: severity (error: a real mismatch; warning: random ops explain it), the headline, why the values differ where known, and what to do; absent in documents written before it
 */
export interface AccuracyVerdict {
  severity: "ok" | "warning" | "error";
  headline: string;
  why: string | null;
  advice: string | null;
}
export interface ComparisonRow {
  /**
   * backend / mode / dynamic=...
   */
  label: string;
  mode: string | null;
  backend: string;
  dynamic: boolean | null;
  /**
   * ok, mismatch or error (compare())
   */
  status: string;
  error: string | null;
  compile_s: number | null;
  median_ms: number | null;
  speedup: number | null;
  max_abs_err: number | null;
  graphs: number | null;
  graph_breaks: number | null;
  kernels: number | null;
  speedup_interval?: null | [number, number];
  noisy?: boolean | null;
  /**
   * the machine was busy while this row was timed (its timing's machine.busy); absent in documents written before it
   */
  busy?: boolean | null;
  /**
   * the row's profile verdict (compare(..., profile=True))
   */
  verdict?: string | null;
  /**
   * rows torch ran exactly as this one, folded into it: torch said their backend ignored their options (e.g. mode); each with torch's message
   */
  same_runs?: {
    label: string;
    reason: string;
  }[];
  /**
   * what torch logged, compiling this row, about options its backend ignores
   */
  ignored_options?: string[];
  /**
   * the torch.compile modes the row's profile advises
   */
  advised_modes?: string[];
  /**
   * the row's exploration document (in a notebook output: as the views read it), when there is one and within the size limit
   */
  document?: null | TcexploreDocumentVersionTcexplore1;
  /**
   * why the document is not embedded, and its size
   */
  document_left_out?: null | {
    reason: string;
    bytes: number;
  };
  /**
   * compare(..., memory=True): the compiled call's peak above what was allocated before it
   */
  peak_memory_bytes?: number | null;
  /**
   * how the row compiled cold (its document's explore.cold_compile); null or absent for a failed row or a document written before it
   */
  cold_compile?: string | null;
  /**
   * the row's speedup as its bar says it, and the bar's tooltip (findings/comparison.py)
   */
  speedup_words?: {
    text: string;
    title: string;
  };
  /**
   * a failed row's error as its cell leads with it: the first paragraph, in one line (findings/comparison.py)
   */
  error_line?: string;
}
export interface ExploreInfo {
  /**
   * file name -> how the report names it (a notebook cell's file: 'cell [5]')
   */
  source_labels?: {
    [k: string]: string;
  };
  /**
   * file name -> its text, for the report's source view (a notebook cell)
   */
  sources?: {
    [k: string]: string;
  };
  /**
   * torch.compile's keyword arguments as the run passed them (a backend given as a callable: its repr)
   */
  compile_kwargs: {
    [k: string]: unknown;
  };
  device: "cpu" | "cuda";
  error: ErrorInfo | null;
  /**
   * compare()'s rows: how this exploration compiled cold (Inductor's caches empty, after a warm-up of the process; or a fresh process); absent elsewhere
   */
  cold_compile?: string;
}
/**
 * Where the time goes (explore(profile=True), tcexplore run --profile): every kernel's measured time per call, rolled up to source lines, held against this machine's measured peaks, and the step's verdict.
 */
export interface Profile {
  device: "cpu" | "cuda";
  /**
   * call: times per call of the compiled function (explore); run: summed over a script's whole run (tcexplore run --profile)
   */
  scope: "call" | "run";
  profiled_calls: number;
  /**
   * wall time the profiled calls took (the profile's own cost)
   */
  cost_s?: number;
  how: string;
  region_us?: number | null;
  /**
   * calls of compiled code (outermost compiled profiler ranges): steady ones, and those during which torch compiled (a resume function, a recompile), left out of every figure but these (measure/kernel_rows.py compiling_calls); absent in documents written before it
   */
  calls?: {
    steady: number;
    compiling: number;
    compiling_us: number;
    per_call_us: number | null;
    /**
     * these figures in one line, as every view shows them (findings/profile.py); absent in documents written before it
     */
    line?: string;
  };
  /**
   * device time per call in no kernel of the document
   */
  other_us?: number;
  cudagraph_share?: number | null;
  kernels: ProfiledKernel[];
  lines: ProfiledLine[];
  files?: {
    file: string | null;
    time_us: number;
    share: number | null;
  }[];
  peaks: Peaks;
  step: ProfileStep;
  run?: Run;
}
export interface ProfiledKernel {
  name: string;
  /**
   * the name, numbered in order where it repeats in its output code (extern_kernels.mm#2), as Document.kernel() takes it; absent in documents written before it
   */
  label?: string;
  /**
   * index into compiles
   */
  compile?: number | null;
  /**
   * index into the compile's output_codes
   */
  output?: number | null;
  /**
   * index into the output code's kernels: the entry this row measured (null: a launch the document lists no kernel for); absent in documents written before it, whose rows hold every launch of a name
   */
  kernel?: number | null;
  kind: string;
  /**
   * per call of the step
   */
  time_us: number;
  /**
   * launches per call of the step
   */
  calls: number | null;
  /**
   * each launch line of the kernel (its document entry's launch_sites, in order), with its own time and launches per call of the step; they add up to the row's; absent in documents written before it
   */
  launch_sites?: ProfiledLaunch[];
  mean_us?: number | null;
  share: number | null;
  /**
   * per launch
   */
  bytes: number | null;
  flops: number | null;
  dtype?: string | null;
  achieved_gbps: number | null;
  achieved_gflops: number | null;
  /**
   * the time the roofs allow one launch over its measured time (1: on a roof)
   */
  efficiency?: number | null;
  bound: Bound | null;
  /**
   * minor page faults of the process per launch, counted around its launches (getrusage)
   */
  page_faults?: number | null;
  below_roof?: BelowRoof;
}
export interface ProfiledLaunch {
  /**
   * 1-based line of the output code (null: unknown)
   */
  line: number | null;
  /**
   * per call of the step
   */
  time_us: number;
  /**
   * launches per call of the step
   */
  calls: number;
  share?: number | null;
}
/**
 * why a kernel under 0.2 of its roof is there, from what its launches measured
 */
export interface BelowRoof {
  reason: "page_faults" | "transcendentals" | "unexplained";
  page_faults: number | null;
  /**
   * page faults times the time one takes here (peaks.fault_us)
   */
  fault_time_s?: number;
  fault_share?: number;
  /**
   * transcendental functions the kernel's code calls
   */
  transcendentals: string[];
  /**
   * the reason in one short text, as every view shows it (findings/profile.py); absent in documents written before it
   */
  text?: string;
}
export interface ProfiledLine {
  file: string | null;
  line: number | null;
  function?: string | null;
  code: string | null;
  time_us: number;
  share: number | null;
  kernels?: string[];
}
export interface Peaks {
  device?: string;
  bandwidth_gbps: number;
  gflops: {
    [k: string]: number;
  };
  how: string;
  cached?: boolean;
  /**
   * time one minor page fault takes on this machine (CPU)
   */
  fault_us?: number | null;
}
export interface ProfileStep {
  /**
   * time per call the figures are over: on CUDA in explore, calls back to back as a loop makes them (measure/loop.py); otherwise the profiled calls' wall time, or a run's compiled regions'
   */
  wall_us: number;
  wall_source?: string;
  /**
   * the timing samples' median, without the profiler (explore)
   */
  timing_wall_us?: number | null;
  kernel_us: number;
  overhead_us?: number;
  overhead_share: number;
  bound_us?: {
    [k: string]: number;
  };
  advised_modes?: string[];
  /**
   * kernel launches per call of the step
   */
  launches?: number;
  /**
   * share of kernel time in kernels with below_roof (their reasons lead the advice)
   */
  below_roof_share?: number;
  verdict: "overhead-bound" | "memory-bound" | "compute-bound";
  advice: string[];
  /**
   * the figures the verdict used (measure/roofline.py's rule); absent in documents written before it
   */
  basis?: {
    /**
     * share: time outside kernels plus latency-bound kernels over the wall time (a CPU, where host time is device time, or a whole run); loop: on a GPU, the host's time to issue a call against its kernels' device time, calls back to back
     */
    rule: "share" | "loop";
    /**
     * share (of the wall time, or of the GPU's time in latency-bound kernels) from which the step is overhead-bound
     */
    threshold: number;
    /**
     * share: wall time per call (or over the run)
     */
    wall_us?: number;
    /**
     * share: time in the step's kernels
     */
    kernel_us?: number;
    /**
     * time in latency-bound kernels
     */
    latency_us?: number;
    /**
     * share: (wall - kernels + latency-bound kernels) / wall
     */
    share?: number;
    /**
     * loop: calls per batch, back to back after a lead call
     */
    calls?: number;
    /**
     * loop: batches; each figure is their median
     */
    batches?: number;
    /**
     * loop: host time per call, the batch issued with no sync
     */
    host_us?: number;
    /**
     * loop: per call, CUDA events around the batch: what a loop pays
     */
    loop_us?: number;
    /**
     * loop: one call then a device sync, on the host: a single call's latency, not a loop's cost
     */
    synced_us?: number;
    /**
     * loop: device time per call of kernels no kernel row holds
     */
    other_us?: number;
    /**
     * loop: the GPU's kernel time per call (the profiler's), other_us included
     */
    device_us?: number;
    /**
     * loop: host_us >= device_us, the GPU waits for the CPU
     */
    gpu_waits?: boolean;
    /**
     * loop: latency_us / device_us
     */
    latency_share?: number;
    /**
     * these figures in one line, as every view shows them (findings/profile.py)
     */
    line?: string;
  };
  /**
   * what a busy machine makes of this verdict (findings/profile.py): a sentence naming why and what to do (torch.set_num_threads), or null on a quiet machine
   */
  unreliable?: string | null;
}
/**
 * The run view (explore(profile=True), tcexplore run --profile): the profiled window told into steps, each compile (cache entry) that ran with its measured time, and the eager gaps between compiled regions attributed to the graph break that made each (measure/run_view.py, from the profiler's "Torch-Compiled Region: <compile id>" ranges and the compiled backward's CompiledFunctionBackward calls). Times in microseconds; the figures are over the steady steps (those that did not compile). Absent in documents written before it or where no step ran compiled code.
 */
export interface Run {
  /**
   * how the figures were measured and how steps were told apart
   */
  how: string;
  steps: RunSteps;
  /**
   * the steps the profiler recorded whole, in all
   */
  wall_us: number;
  /**
   * mean wall time of a steady step under the profiler (the frames' and gaps' times add up to it); the program's own is step_time.per_step_us
   */
  per_step_us: number;
  /**
   * per steady step, time in compiled code (compiled regions and the compiled backward's calls)
   */
  compiled_us: number;
  /**
   * per steady step, per_step_us - compiled_us: the eager gaps
   */
  eager_us: number;
  /**
   * compiled_us / per_step_us
   */
  compiled_share: number;
  /**
   * the share of a step in compiled code and the costliest graph break, in one line (findings/run_view.py)
   */
  headline: string;
  /**
   * one row per compile (cache entry) that ran in the steady steps, and one per compiled backward, heaviest first
   */
  frames: RunFrame[];
  /**
   * eager time in the steady steps between compiled code, by what caused it, heaviest first; frames' total_us and gaps' total_us add up to the steady steps' wall time
   */
  gaps: RunGap[];
  timeline: RunTimeline;
  unprofiled?: UnprofiledSteps;
  step_time?: RunStepTime;
}
export interface RunSteps {
  /**
   * steps of the run or of the profiled calls: in a run, every step the step markers saw (measure/step_markers.py), profiled or not; else the steps the profiler recorded
   */
  count: number;
  /**
   * what started a step (a call of the explored function; each entry of the run's first compiled frame)
   */
  basis: string;
  /**
   * 0-based steps during which torch compiled (their time is mostly compile): left out of the figures; in a run, every such step the markers saw, profiled or not
   */
  compiled: number[];
  /**
   * the steps the figures are over: those the profiler recorded whole that did not compile
   */
  steady: number;
  /**
   * the steps the profiler recorded whole, as [first, last] runs (a run's windows; explore's calls)
   */
  profiled?: [number, number][];
}
export interface RunFrame {
  /**
   * torch's compile id ("1/0"); a backward row holds its forward's
   */
  compile_id: string;
  /**
   * index into compiles (null: not captured)
   */
  compile: number | null;
  /**
   * the compiled frame's function
   */
  frame: string;
  file: string | null;
  line: number | null;
  /**
   * the compiled backward of that compile (its CompiledFunctionBackward calls)
   */
  backward: boolean;
  /**
   * entries over the steady steps
   */
  entered: number;
  /**
   * entries per steady step
   */
  per_step: number;
  /**
   * over the steady steps; a region's own time: nested regions and the eager code of its graph break are not in it
   */
  total_us: number;
  /**
   * per entry
   */
  mean_us: number;
  /**
   * its kernels' time over the steady steps (device time on CUDA)
   */
  kernel_us: number;
  /**
   * host time outside its kernels: guards of nested calls, Dynamo's wrapper, AOTAutograd's, the launches (on CPU total_us - kernel_us; on CUDA the host time outside its kernel launch ranges)
   */
  outside_us: number;
  /**
   * for a frame with more than one cache entry that ran: true on the one with the most time (null: one entry ran)
   */
  hot: boolean | null;
  /**
   * Dynamo's cache lookup at each entry (the guards of every cache entry tried), median over the steady entries, under the profiler (its 'TorchDynamo Cache Lookup' range); null for a backward
   */
  guard_us?: number | null;
  /**
   * torch's own figure at compile (compilation_metrics.guard_latency_us): one guard check after flushing the CPU cache, a cold upper bound
   */
  guard_latency_us?: number | null;
  /**
   * the frame's own time per entry outside its kernels by what ran it, from torch's ranges under the profiler (measure/run_detail.py); null where none was found
   */
  outside_split?: {
    /**
     * Dynamo's bytecode around the graph's call
     */
    dynamo_us?: number;
    /**
     * AOTAutograd's runtime wrapper (CompiledFunction / the backward node, less the graph's call)
     */
    aot_us?: number;
    /**
     * the compiled graph's call less its kernel launches: Inductor's wrapper code, a CUDA graph's replay bookkeeping
     */
    wrapper_us?: number;
    /**
     * the kernel launch ranges' host time (on CPU the kernels themselves)
     */
    launch_us?: number;
  } | null;
}
export interface RunGap {
  /**
   * graph_break: the eager code of a break, from its graph's end to the resume function's region; between_steps: outside any compiled frame; before_first: in a step, before its first compiled code (Dynamo's entry and guards)
   */
  kind: "graph_break" | "between_steps" | "before_first";
  /**
   * index into graph_breaks (kind graph_break)
   */
  break: number | null;
  file: string | null;
  line: number | null;
  label: string;
  /**
   * gaps of this cause over the steady steps
   */
  count: number;
  total_us: number;
  per_step_us: number;
  /**
   * what ran in the gap, from torch's outermost eager profiler ranges (Optimizer.step#AdamW.step, the autograd engine, ATen ops, Dynamo's cache lookup, a user's record_function; Python with no range), heaviest first; absent in documents written before it
   */
  names?: RunGapName[];
}
export interface RunGapName {
  name: string;
  kind: "optimizer_step" | "zero_grad" | "data" | "backward" | "guards" | "ops" | "range" | "python";
  label?: string;
  total_us: number;
  /**
   * per profiled step
   */
  per_step_us: number;
  /**
   * an optimizer step's time per unprofiled step (torch's optimizer step hooks)
   */
  unprofiled_us?: number | null;
}
/**
 * one steady step drawn (the median one by wall time), times from its start
 */
export interface RunTimeline {
  step: number;
  duration_us: number;
  spans: RunSpan[];
  /**
   * spans past the drawing limit, not listed
   */
  spans_left_out: number;
  axis?: RunTimelineAxis;
}
export interface RunSpan {
  kind: "compiled" | "eager";
  start_us: number;
  end_us: number;
  /**
   * index into frames (compiled spans)
   */
  frame: number | null;
  /**
   * index into gaps (eager spans)
   */
  gap: number | null;
  label: string;
}
/**
 * the time axis the views draw under the step (common/axis.py's span_axis): round ticks, then the step's end, where the axis ends; absent in documents written before it
 */
export interface RunTimelineAxis {
  title: string;
  ticks: {
    /**
     * from the step's start
     */
    at_us: number;
    label: string;
  }[];
}
/**
 * the steps as the program runs them, without the profiler (measure/profile.py, measure/run_profile.py): a run's steps outside the profiler's windows, timed by host timers at each entry of the first compiled frame (measure/step_markers.py), or explore's calls timed to completion before profiling; absent in documents written before it
 */
export interface UnprofiledSteps {
  /**
   * mean wall time of a steady step without the profiler (null: none was timed without it)
   */
  per_step_us: number | null;
  /**
   * the steps it is the mean of
   */
  steps: number;
  /**
   * a run's steps the profiler's windows recorded that did not compile
   */
  profiled_steps?: number;
  /**
   * markers: host timers at each entry of a run's first compiled frame; calls: explore's calls timed to completion; none: not timed
   */
  basis: "markers" | "calls" | "none";
  /**
   * per_step_us under the profiler over this one: how much profiling slowed a step
   */
  slowdown: number | null;
  /**
   * one graph call's host timer, measured (µs)
   */
  marker_us?: number | null;
  /**
   * graph calls (each through a timer) per step
   */
  graph_calls_per_step?: number | null;
  /**
   * per optimizer class, its steps' time per unprofiled step (torch's optimizer step hooks)
   */
  optimizer_us?: {
    [k: string]: number;
  };
  /**
   * a run's profiler windows as [the first step it could record whole, the step in which it stopped (null: it never did)]: one from the run's start, and one from each trace event (a compile) after a window stopped; the unprofiled steps are the others
   */
  windows?: [number | null, number | null][];
  /**
   * steady steps after its last compile that a window records before it stops
   */
  window_steps?: number;
}
/**
 * the per-step figure every view shows, in words (findings/run_view.py); absent in documents written before it
 */
export interface RunStepTime {
  /**
   * the unprofiled step where one was timed, else the profiled one
   */
  per_step_us: number;
  line: string;
  /**
   * how much profiling slowed a step, where over 1.1x
   */
  slowdown_note: string | null;
}
export interface Distributed {
  rank: number | null;
  world_size: number | null;
  backend: string | null;
  local_rank?: number | null;
  /**
   * process_group: read from torch.distributed; environment: only the launcher's RANK/WORLD_SIZE; trace: the log's event envelopes
   */
  source?: "process_group" | "environment" | "trace";
}
export interface RankInputs {
  /**
   * files (and documents) looked at
   */
  files: number;
  /**
   * inputs read as a rank
   */
  read: number;
  /**
   * files not read, with why; one set aside for another file of its rank names that rank
   */
  skipped: {
    path: string;
    reason: string;
    rank: number | null;
  }[];
  /**
   * ranks more than one file claimed: the files, the one read, those read as their file name's rank instead, those set aside, and the rule that chose
   */
  conflicts: {
    rank: number;
    paths: string[];
    kept: string | null;
    moved: {
      path: string;
      rank: number;
    }[];
    set_aside: string[];
    rule: string | null;
  }[];
  /**
   * one line of what was skipped or settled (the command line prints it); null when every input was read as its metadata's rank
   */
  line: string | null;
}
export interface RankEntry {
  rank: number;
  /**
   * which rule gave the rank: the input's metadata (its events' rank, a document's distributed.rank), its file name's rank_<N>, or its place among the inputs; null in documents written before
   */
  rank_from?: "metadata" | "file_name" | "order" | null;
  /**
   * which rule gave the rank, in words, and how a conflict over it was settled for this input, if there was one
   */
  rank_note?: string | null;
  source: {
    kind: "document" | "trace";
    path: string | null;
  };
  distributed: null | Distributed;
  environment: {
    [k: string]: unknown;
  };
  capture: {
    [k: string]: unknown;
  };
  summary: Summary;
  compiles: {
    id: string;
    frame: null | Location;
    status: string;
    graph_nodes: number | null;
    recompile_reasons: string[];
  }[];
  graph_breaks: {
    compile_id: string | null;
    file: string | null;
    line: number | null;
    reason: string | null;
  }[];
  collectives: Collectives[];
  error: ErrorInfo | null;
  /**
   * the rank's whole document, when within the size limit
   */
  document: null | TcexploreDocumentVersionTcexplore1;
  /**
   * the file holding the rank's whole document (read from a log: written beside the multi-rank document)
   */
  document_path?: string | null;
  /**
   * why the document is not embedded, and its size
   */
  document_left_out: null | {
    reason: string;
    bytes: number;
  };
}
export interface Collectives {
  compile_id: string;
  /**
   * where the order was read: Inductor's schedule, the post-grad, AOT or Dynamo graph
   */
  graph: string;
  ops: string[];
}
export interface RankDivergence {
  kind:
    | "ranks"
    | "environment"
    | "error"
    | "compile_ids"
    | "recompile"
    | "graph"
    | "graph_breaks"
    | "collectives"
    | "status"
    | "cache"
    | "inputs";
  /**
   * the ranks that differ from the others
   */
  ranks: number[];
  compile_id: string | null;
  title: string;
  /**
   * ranks that agree, with what they show
   */
  groups: {
    ranks: number[];
    value: string;
  }[];
  evidence: {
    rank: number | null;
    text: string;
  }[];
}
export interface MeasuredMemory {
  peak_bytes: null | {
    device: "cpu" | "cuda";
    how: string;
    /**
     * null for `tcexplore run --memory`: a script has no eager twin
     */
    eager: MemoryPeak | null;
    compiled: MemoryPeak;
    difference_bytes?: number;
    ratio?: number | null;
  };
  error?: ErrorInfo | null;
  cudagraph_pools?: CudaGraphPool[] | null;
}
export interface MemoryPeak {
  peak_bytes: number;
  before_bytes?: number | null;
  above_before_bytes: number;
}
export interface CudaGraphPool {
  /**
   * the allocator's private pool id
   */
  pool: number[];
  segments: number;
  reserved_bytes: number;
  allocated_bytes: number;
  share_of_compiled_peak?: number;
}
/**
 * the activations saved for backward over every compile, by user line (most bytes first), with the nodes recomputed instead and the activation memory budgets in force; decided once in Python (findings/memory.py) and drawn by every view; absent in documents written before it (tcexplore.load() computes it)
 */
export interface SavedActivations {
  bytes: number;
  /**
   * activations saved whose size is symbolic (dynamic shapes): saved, but in no byte count; absent in documents written before it
   */
  symbolic?: number;
  lines: SavedLine[];
  recomputed: number;
  budgets: number[];
}
/**
 * how the document is named where several are listed (JupyterLab's sidebar of a notebook's outputs), decided in Python (findings/listing.py): its functions or what it is, and its counts and verdicts in a few words; absent in documents written before it
 */
export interface Listing {
  label: string;
  detail: string;
}
/**
 * Dynamo's tracing time per user function added up over the compiles, heaviest first (findings/compile_time.py); absent in documents written before it
 */
export interface TracedFunctions {
  functions: TracedFunctionTime[];
  sources: string[];
}
export interface TracedFunctionTime {
  file: string | null;
  line: number | null;
  function: string;
  cum_ms: number;
  self_ms: number | null;
  compiles: string[];
}
/**
 * what torch.compile did at each line of the code, as the Source views show it, decided in Python (findings/source_marks.py): files, the user's first, each with its marked lines; absent in documents written before it
 */
export interface SourceMarks {
  files: SourceFile[];
  /**
   * what the views say of the files they fold (library files, files only guards name)
   */
  folded: string | null;
}
export interface SourceFile {
  file: string;
  label: string;
  library: boolean;
  guards_only: boolean;
  folded: boolean;
  lines: SourceLine[];
}
export interface SourceLine {
  line: number;
  code: string;
  flagged: boolean;
  marks: SourceMark[];
}
export interface SourceMark {
  kind:
    | "break"
    | "break-path"
    | "recompile"
    | "shape"
    | "divergence"
    | "tracing"
    | "time"
    | "kernel"
    | "guard"
    | "op"
    | "memory";
  label: string;
  title: string;
  link: MarkLink;
  /**
   * a time or memory mark: its line's share of the heaviest line's
   */
  heat?: number;
  /**
   * a guard or op mark: how many per compile
   */
  per_compile?: {
    compile: string;
    count: number;
  }[];
  /**
   * a guard or op mark: each guard's expression, each node's name, with its compile
   */
  items?: {
    compile: string;
    text: string;
  }[];
}
/**
 * where a mark leads: a tab of the explorer (and the report's matching section), with the compile, output, kernel, graph node or break site it names
 */
export interface MarkLink {
  tab: string;
  compile?: string;
  output?: number;
  kernel?: string;
  node?: string;
  site?: number;
}
