/**
 * The tcexplore document ("tcexplore/1") as the extension reads it. The JSON Schema in
 * tcexplore/schema is the definition; every field here is treated as untrusted input and
 * optional where a partial document could lack it.
 */

export const MIME_TYPE = 'application/vnd.tcexplore.v1+json';
export const SCHEMA = 'tcexplore/1';

export interface Location {
  file?: string | null;
  line?: number | null;
  function?: string | null;
  code?: string | null;
}

export interface GraphNode {
  name: string;
  op: string;
  target: string;
  args: string[];
  users: string[];
  meta?: Record<string, unknown> | null;
  source?: Location | null;
  kernels?: string[];
}

export interface Graph {
  text: string;
  truncated?: boolean;
  nodes: GraphNode[];
  nodes_truncated?: boolean;
}

export interface Kernel {
  name: string;
  kind: string;
  triton_kind?: string | null;
  source: string;
  post_grad_nodes: string[];
  aten_ops: string[];
  user_lines: Location[];
  mapping: string;
  source_nodes?: string[];
}

/** An op of another library (or of the captured program) an output code calls. */
export interface CustomOp {
  op: string;
  module: string | null;
  file?: string;
  schema?: string;
  /** its Python implementation, for an op the captured program (__main__) defines */
  source?: string;
}

export interface OutputCode {
  text: string;
  kind: string;
  aot_id?: string | null;
  path?: string | null;
  post_grad_graph: number;
  kernels: Kernel[];
  unmapped_nodes: string[];
  /** compute nodes nothing uses: Inductor drops them, no kernel computes them */
  dead_nodes?: string[];
  /** ops of namespaces other than aten/prims/inductor the code calls, and what registered them */
  custom_ops?: CustomOp[];
  /** torch's kernel → post-grad node mapping; null where the log has none */
  provenance?: Record<string, unknown> | null;
}

export interface Guard {
  type: string;
  source?: string | null;
  expression: string;
  user_code?: string | null;
  user_location?: Location | null;
}

export interface Recompile {
  failed_compile_id?: string | null;
  guard: string;
  expected?: string | null;
  actual?: string | null;
  user_code?: string | null;
  user_location?: Location | null;
}

export interface Phase {
  name?: string | null;
  start_us?: number | null;
  duration_ms?: number | null;
  children: Phase[];
}

export interface ErrorInfo {
  type?: string | null;
  message?: string | null;
  file?: string | null;
  line?: number | null;
  traceback?: string;
}

/** CUDA-graph data as the extension reads it where a document carries it (see ARCHITECTURE.md). */
export interface CudaGraphOp {
  op: number;
  reason: string;
  ir: string;
  fx: string;
  user_stack: Location[];
}

export interface CudaGraphPartition {
  index: number;
  nodes: number;
  cudagraphable: boolean;
  detail?: string;
  ops?: CudaGraphOp[];
}

export interface CudaGraphSkip {
  reason: string;
  user_stack: Location[];
}

export interface FastPathMissed {
  message: string;
  explanation: string;
  fix: string;
}

export interface CudaGraphInfo {
  summary?: { partitions: number; cudagraphable: number; non_cudagraphable: number } | null;
  partitions?: CudaGraphPartition[];
  skips?: CudaGraphSkip[];
  recordings?: number;
  rerecordings?: number;
  messages?: string[];
  fast_path_missed?: FastPathMissed | null;
}

export interface Compile {
  id: string;
  status: string;
  error?: ErrorInfo | null;
  frame?: Location | null;
  dynamo_graph?: Graph | null;
  guards: Guard[];
  recompile_reasons: Recompile[][];
  aot_graphs: Record<string, Graph>;
  post_grad_graphs: Graph[];
  output_codes: OutputCode[];
  phases: Phase[];
  metrics?: Record<string, unknown> | null;
  backward_metrics?: Record<string, unknown> | null;
  cudagraphs?: CudaGraphInfo | null;
  frame_id?: number | null;
  frame_compile_id?: number | null;
  attempts?: number;
  restart_reasons?: string[];
  /** Dynamo graphs of attempts torch restarted, oldest first (dynamo_graph is the last attempt's) */
  restarted_attempts?: RestartedAttempt[];
  /** the call path that made this compile, outermost first (dynamo_start's stack) */
  stack?: Location[];
  bytecode?: Bytecode | null;
  /** a resume function's compile: the graph break it continues */
  resume_of?: ResumeOf | null;
  tracing?: Tracing | null;
  /** present when the compile ran in a thread without capture()'s settings */
  without_capture_settings?: { settings: string[]; threads: string[] };
  /** saved for backward, recomputed, Inductor's buffers (capture/memory.py) */
  memory?: CompileMemory | null;
}

/** An attempt of a compile that Dynamo restarted after it had output a graph. */
export interface RestartedAttempt {
  attempt: number;
  graph: Graph;
  /** the restart's reason, where torch names one only for the compile */
  reason: string | null;
}

/** One instruction as dis prints it. */
export interface Instruction {
  offset: number | null;
  line: number | null;
  starts_line?: boolean;
  opname: string;
  arg?: number | null;
  argrepr?: string | null;
  /** the jump label dis prints (L1, or the offset a >> marks) */
  label?: string | null;
  target?: string | null;
}

export interface Disassembly {
  text: string;
  truncated: boolean;
  instructions: Instruction[];
}

export type StepKind = 'graph' | 'eager' | 'side_effect' | 'resume' | 'helper' | 'local' | 'return' | 'branch' | 'unread';

/** One step of the reading of the modified code, with the instructions it was read from. */
export interface ReadingStep {
  kind: StepKind;
  text: string;
  line?: number | null;
  instructions: number[];
  graph?: string;
  resume?: string;
  offset?: number;
}

export interface ResumeJump {
  global: string;
  offset: number;
  line: number | null;
  function: string | null;
  graph_break: number | null;
  compiles: string[];
  shared_name: boolean;
}

export interface Bytecode {
  source: 'bytecode_hook' | 'trace_artifact';
  original: Disassembly;
  modified: Disassembly;
  side_effects?: string[] | null;
  reading: { steps: ReadingStep[]; complete: boolean };
  resume_jumps: ResumeJump[];
}

export interface ResumeOf {
  graph_break: number;
  compile_id: string | null;
  file?: string | null;
  line?: number | null;
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

export interface Tracing {
  source: 'dynamo_profiler' | 'chromium_events';
  total_ms: number | null;
  functions: TracedFunction[];
}

export interface GraphBreak {
  reason: string;
  file?: string | null;
  line?: number | null;
  explanation?: string | null;
  hints: string[];
  link?: string | null;
  /** torch's "Developer debug context" line */
  developer_context?: string | null;
  user_stack: Location[];
  compile_id?: string | null;
  attempt?: number;
}

/** What explore() and %%tcompile add: how the views name files (a cell: "cell [5]"). */
export interface ExploreInfo {
  source_labels?: Record<string, string>;
  sources?: Record<string, string>;
}

export interface TimingStats {
  median_ms: number;
  iqr_ms: number;
  /** quartiles (absent in documents written before them) */
  q1_ms?: number;
  q3_ms?: number;
  min_ms: number;
  max_ms?: number;
  samples: number;
  noisy?: boolean;
}

export interface Timing {
  eager: TimingStats;
  compiled: TimingStats;
  compile_s: number;
  speedup: number | null;
  /** about 95% interval of the speedup, from the paired samples (tcexplore/measure/timing.py) */
  speedup_interval?: [number, number] | null;
  break_even_calls: number | null;
  noisy: boolean;
  /** seconds of timing each side was given */
  budget_s?: number | null;
  device: string;
  /** the machine over the samples (tcexplore/measure/machine.py); absent in older documents */
  machine?: MachineState | null;
  /** how far to trust it, decided in Python (render/measurements.py); absent in older documents */
  verdict?: {
    severity: 'ok' | 'warning';
    headline: string;
    noise?: string | null;
    busy?: string | null;
    advice?: string | null;
  };
}

export interface MachineState {
  busy: boolean;
  reasons: string[];
  cores: number;
  torch_threads: number;
  load_average: number | null;
  /** cores other processes used on this process's CPUs; null where /proc/stat is unreadable */
  others_cores: number | null;
  process_cores: number;
  throttled_share: number | null;
  window_s: number;
  source: string;
  /** the torch thread count that fits the cores left free, when fewer than torch uses */
  fit_threads?: number | null;
  /** other processes with work on the GPU (NVML or nvidia-smi), CUDA only */
  gpu?: { others: number; pids: number[]; own_pid_listed?: boolean; utilization_percent?: number | null; source: string };
}

export interface LeafDiff {
  /** 'logits', 'past_key_values.layers[0].keys', '[0]', a cell's name; '' for the output itself. */
  path: string;
  /** tensor | value | not_compared | type_mismatch | structure_mismatch | truncated */
  kind: string;
  /** false only for a mismatch (a leaf not compared is ok). */
  ok: boolean;
  shape?: number[];
  dtype?: string;
  max_abs_err?: number | null;
  max_rel_err?: number | null;
  mismatched?: number | null;
  numel?: number;
  expected?: string;
  actual?: string;
  /** value, not_compared: the Python type. */
  type?: string;
  /** not_compared: why a container was not walked. */
  reason?: string;
  /** truncated: compared leaves not listed, how many of them differ, whether the walk stopped. */
  omitted?: number;
  omitted_mismatches?: number;
  limit_reached?: boolean;
}

export interface Divergence {
  graph_index?: number;
  node: string;
  op: string;
  target: string;
  source?: Location | null;
  kernels: string[];
  max_abs_err?: number | null;
  /** Random operators (torch's nondeterministic_seeded tag) the node runs, e.g. aten.randn.default. */
  random_ops?: string[];
  /** outputs: the node's values diverge; gradients: its backward (the outputs agreeing). */
  of?: 'outputs' | 'gradients';
  /** with of 'gradients': the graph input whose gradient diverges most. */
  gradient_of?: string;
}

export interface Accuracy {
  ok: boolean;
  outputs: LeafDiff[];
  inputs_after_call: LeafDiff[];
  /** A training step's gradients, eager against compiled, one row per parameter (path: its name). */
  gradients?: LeafDiff[];
  first_divergence: Divergence | null;
  divergence_error?: ErrorInfo;
  /** random: the first divergence is at a random op; random_in_graph: no node found, the graphs hold random ops. */
  cause?: 'random' | 'random_in_graph';
  random_ops?: string[];
  /** How to pass Inductor's fallback_random where this run was made; null when the backend is not Inductor. */
  fallback_random_option?: string | null;
}

export interface ComparisonRow {
  /** "backend / mode / dynamic=..." (absent in documents written before it) */
  label?: string;
  mode?: string | null;
  backend?: string | null;
  dynamic?: boolean | null;
  status?: string;
  error?: string | null;
  compile_s?: number | null;
  median_ms?: number | null;
  speedup?: number | null;
  max_abs_err?: number | null;
  /** compare(..., memory=True): the compiled call's peak above what was allocated before */
  peak_memory_bytes?: number | null;
  graphs?: number | null;
  graph_breaks?: number | null;
  kernels?: number | null;
  speedup_interval?: [number, number] | null;
  noisy?: boolean | null;
  /** the machine was busy while this row was timed (its timing's machine.busy) */
  busy?: boolean | null;
  /** rows torch ran exactly as this one (their backend ignored their mode), folded into it, with torch's message */
  same_runs?: Array<{ label: string; reason: string }>;
  /** what torch logged, compiling this row, about options its backend ignores */
  ignored_options?: string[];
  /** the row's document: in a comparison output, as the views read it (maybe packed) */
  document?: unknown;
  document_left_out?: { reason: string; bytes: number } | null;
}

/** How the document was made: live in-process, or read from a TORCH_TRACE log (which lacks some data). */
export interface CaptureInfo {
  source?: 'live' | 'trace';
  path?: string;
  partial?: string | null;
  unavailable?: Array<{ field: string; reason: string }>;
}

export interface TcxDocument {
  schema: string;
  created?: string;
  environment?: Record<string, unknown>;
  capture?: CaptureInfo;
  distributed?: { rank?: number | null; world_size?: number | null; backend?: string | null } | null;
  summary: Record<string, number>;
  compiles: Compile[];
  graph_breaks: GraphBreak[];
  explore?: ExploreInfo | null;
  error?: ErrorInfo | null;
  timing?: Timing;
  accuracy?: Accuracy;
  /** What measuring put back after running the user's code, and what it cannot. */
  isolation?: { restored: string[]; not_restorable: string[] };
  /** the grid of compare() this run is row `row` of */
  comparison?: { rows?: ComparisonRow[]; row?: number };
  runtime?: { cudagraphs?: CudaGraphInfo | null };
  profile?: Profile;
  /** the files named that are library code, decided at capture (capture/library_files.py) */
  library_files?: string[];
  /** decided when the document was built (tcexplore/findings/); absent in older documents */
  findings?: DocFinding[];
  /** frames that ran without compiled code, with torch's reason */
  not_compiled?: NotCompiled[];
  /** explore(..., memory=True) / tcexplore run --memory: measured peaks, CUDA-graph pools */
  memory?: MeasuredMemory | null;
}

/** A link a finding gives to its evidence: a tab, with the compile (by id) or line. */
export interface FindingEvidence {
  tab: string;
  label: string;
  compile?: string | null;
  file?: string;
  line?: number;
  output?: number;
}

/** A size that became dynamic (dynamic_shape findings), in the user's terms. */
export interface ShapeInfo {
  name: string;
  symbol: string;
  range: string;
  compile: string;
  value?: unknown;
  changed?: { from: string; to: string } | null;
  unbacked?: boolean;
  guards: Array<{ file: string | null; line: number | null; function: string | null; expr: string; kind: string; compile?: string }>;
}

/** One finding of the document's `findings` section (schema $defs/finding). */
export interface DocFinding {
  kind: string;
  severity: 'error' | 'warning' | 'info' | 'ok';
  title: string;
  count: number;
  locations: Array<{ file: string; line: number | null; function: string | null }>;
  evidence: FindingEvidence[];
  advice: string | null;
  details?: string[];
  shape?: ShapeInfo;
}

/** A frame Dynamo ran without compiled code: torch's reason and what to do. */
export interface NotCompiled {
  function: string;
  file: string;
  line: number | null;
  category: 'skipfiles' | 'disabled' | 'stance' | 'recompile_limit' | 'no_tensor_ops' | 'cache' | 'other';
  reason: string;
  advice: string;
}

/** Where a click can take the reader: a tab and the thing to show in it. */
export type Target =
  | { tab: 'overview' }
  | { tab: 'source'; file: string; line: number }
  | { tab: 'graphs'; compile: number; graph: string; node?: string }
  | { tab: 'bytecode'; compile: number; instruction?: number }
  | { tab: 'fusion'; compile: number; output: number; kernel?: string }
  | { tab: 'code'; compile: number; output: number; kernel?: string }
  | { tab: 'guards'; compile: number }
  | { tab: 'cudagraphs' }
  | { tab: 'shapes' }
  | { tab: 'timing' }
  | { tab: 'profile'; kernel?: number }
  | { tab: 'memory' }
  | { tab: 'accuracy' }
  | { tab: 'compare' };

export type TabId = Target['tab'];

export type Bound = 'memory' | 'compute' | 'latency';

/** One kernel of the profile: time and launches per step, bytes and FLOPs per launch. */
export interface ProfiledKernel {
  name: string;
  compile?: number | null;
  output?: number | null;
  kind: string;
  time_us: number;
  calls: number | null;
  mean_us?: number | null;
  share: number | null;
  bytes: number | null;
  flops: number | null;
  dtype?: string | null;
  achieved_gbps: number | null;
  achieved_gflops: number | null;
  /** the time the roofs allow one launch over its measured time (1: on a roof) */
  efficiency?: number | null;
  bound: Bound | null;
  /** minor page faults of the process per launch (getrusage around its launches) */
  page_faults?: number | null;
  below_roof?: BelowRoof;
}

/** Why a kernel under 0.2 of its roof is there, from what its launches measured. */
export interface BelowRoof {
  reason: 'page_faults' | 'transcendentals' | 'unexplained';
  page_faults: number | null;
  fault_time_s?: number;
  fault_share?: number;
  transcendentals: string[];
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

/** Where the time goes (explore(profile=True), tcexplore run --profile). */
export interface Profile {
  device: 'cpu' | 'cuda';
  scope: 'call' | 'run';
  profiled_calls: number;
  cost_s?: number;
  how: string;
  kernels: ProfiledKernel[];
  lines: ProfiledLine[];
  files?: Array<{ file: string | null; time_us: number; share: number | null }>;
  peaks: { device?: string; bandwidth_gbps: number; gflops: Record<string, number>; how: string; fault_us?: number | null };
  step: {
    wall_us: number;
    wall_source?: string;
    timing_wall_us?: number | null;
    kernel_us: number;
    overhead_us?: number;
    overhead_share: number;
    bound_us?: Record<string, number>;
    verdict: 'overhead-bound' | 'memory-bound' | 'compute-bound';
    advice: string[];
    below_roof_share?: number;
  };
  cudagraph_share?: number | null;
  /** calls of compiled code; those that compiled are left out of every other figure (measure/profile.py) */
  calls?: { steady: number; compiling: number; compiling_us: number; per_call_us: number | null };
}

/** One tensor the partitioner keeps between forward and backward. */
export interface SavedTensor {
  node: string;
  target: string | null;
  shape: string[];
  dtype: string;
  bytes: number | null;
  kind: 'activation' | 'parameter' | 'input';
  /** the forward node whose storage it is (its base, for a view) */
  storage: string;
  user_location: { file: string; line: number; function: string; code?: string | null } | null;
}

export interface SavedLine {
  file: string;
  line: number;
  function: string;
  code?: string | null;
  bytes: number;
  nodes: string[];
}

export interface OutputBuffers {
  output_code: number;
  kind: string | null;
  allocated_bytes: number;
  without_reuse_bytes: number;
  planned_peak_bytes: number;
  buffers: number;
  reuses: number;
  functions: Array<{ name: string; line: number; planned_peak_bytes: number; allocated_bytes: number }>;
}

/** A compile's static memory section, from its AOT graphs and output code. */
export interface CompileMemory {
  saved_for_backward: {
    bytes: number;
    unsized: number;
    storages: number;
    tensors: SavedTensor[];
    bytes_by_kind: { activation: number; parameter: number; input: number };
    lines: SavedLine[];
  } | null;
  recomputed: Array<{ node: string; target: string; user_location: SavedTensor['user_location']; bytes: number | null }> | null;
  activation_memory_budget: number | null;
  buffers: OutputBuffers[];
}

export interface MemoryPeak {
  peak_bytes: number;
  before_bytes?: number | null;
  above_before_bytes: number;
}

export interface MeasuredMemory {
  peak_bytes: {
    device: 'cpu' | 'cuda';
    how: string;
    eager: MemoryPeak | null;
    compiled: MemoryPeak;
    difference_bytes?: number;
    ratio?: number | null;
  } | null;
  cudagraph_pools?: Array<{ pool: number[]; segments: number; reserved_bytes: number; allocated_bytes: number; share_of_compiled_peak?: number }> | null;
  error?: ErrorInfo | null;
}
