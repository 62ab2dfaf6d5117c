/**
 * The graph-break audit, as tcexplore/findings/graph_break_audit.py computes it (same steps, same
 * names): the document's break events grouped by the line that broke (a site), most events
 * first. torch reports a break once per compile that reaches it (each frame Dynamo was
 * tracing down to the line, and each recompile), so a site counts events; all sites add up
 * to the document's (and tlparse's) graph-break count. torch's reason is read as capture
 * split it (message, generic line, details: capture/parsers/graph_breaks.py).
 */

import { plural, SourceLabels, sourceLabels, where } from './format';
import { Compile, GraphBreak, Location, TcxDocument } from './types';

const RESUME_PREFIX = 'torch_dynamo_resume_in_';
/** A break of a document saved before capture split torch's reason into its parts. */
export const OLDER_REASON =
  'The reason as torch wrote it (this document was saved before tcexplore split it: read it with tcexplore.load() in Python and display it again)';
/** torch_dynamo_resume_in_<function>_at_<line>: the code after a graph break, as Dynamo names it */
export const RESUME_NAME = /^torch_dynamo_resume_in_(.+)_at_\d+$/;

/** "f after line 19" for Dynamo's torch_dynamo_resume_in_f_at_19, else the name itself. */
export function resumeLabel(name: string): string {
  const found = /^torch_dynamo_resume_in_(.+)_at_(\d+)$/.exec(name);
  return found ? `${found[1]} after line ${found[2]}` : name;
}

export interface StackFrame extends Location {
  where: string;
  library: boolean;
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
}

export interface CallPath {
  count: number;
  stack: StackFrame[];
}

export interface BreakFrame {
  function: string | null;
  file: string | null;
  line: number | null;
  count: number;
  compiles: string[];
}

export interface BreakSite {
  file: string | null;
  line: number | null;
  where: string;
  function: string | null;
  code: string | null;
  library: boolean;
  count: number;
  events: number[];
  compiles: Array<string | null>;
  frames: BreakFrame[];
  reasons: BreakReason[];
  paths: CallPath[];
  resume_functions: Array<{ name: string; compiles: string[] }>;
}

/** The files the capture marked as library code (the document's `library_files`, decided
 * from where the interpreter keeps its libraries). A document from before the mark has
 * none: no frame is folded, so nothing of the user's is hidden on a guess. */
export function libraryFiles(
  doc: Pick<TcxDocument, 'library_files'>
): Set<string> {
  return new Set(
    Array.isArray(doc.library_files)
      ? doc.library_files.filter(f => typeof f === 'string')
      : []
  );
}

function frame(
  loc: Location | null | undefined,
  labels: SourceLabels,
  library: Set<string>
): StackFrame {
  const l = loc ?? {};
  return {
    file: l.file ?? null,
    line: l.line ?? null,
    function: l.function ?? null,
    code: l.code ?? null,
    where: auditWhere(l.file, l.line, labels),
    library: typeof l.file === 'string' && library.has(l.file)
  };
}

/** "cell [5], line 3" for a labelled file, else "path:line" (the full path, as Python's). */
function auditWhere(
  file: string | null | undefined,
  line: number | null | undefined,
  labels: SourceLabels
): string {
  if (file && labels[file]) {
    return where({ file, line }, labels);
  }
  return `${file ?? '?'}${typeof line === 'number' ? `:${line}` : ''}`;
}

/** The resume function Dynamo names after the frame that broke and that frame's line. */
function resumeName(brk: GraphBreak, frameLoc: Location): string | null {
  const fn = frameLoc.function;
  const file = frameLoc.file;
  if (!fn || !file) {
    return null;
  }
  let original = fn;
  // A resume function's own resume is generated from the original code object.
  for (let m = RESUME_NAME.exec(original); m; m = RESUME_NAME.exec(original)) {
    original = m[1];
  }
  const stack = (brk.user_stack ?? []).filter(
    f => f && f.file === file && typeof f.line === 'number'
  );
  // torch names a compiled resume frame in the stack by its own name or by the original's.
  const entry =
    stack.find(f => f.function === fn) ??
    stack.find(f => f.function === original);
  return entry ? `${RESUME_PREFIX}${original}_at_${entry.line}` : null;
}

function reasons(events: GraphBreak[]): BreakReason[] {
  const grouped = new Map<string, BreakReason>();
  for (const brk of events) {
    // a document saved before capture split the reason: say so, and show torch's words whole
    const older = typeof brk.message !== 'string';
    const message = older ? OLDER_REASON : brk.message!;
    const details = (older ? brk.reason : brk.details) || null;
    let entry = grouped.get(message);
    if (!entry) {
      entry = {
        message,
        count: 0,
        explanation: brk.explanation ?? null,
        hints: [...(brk.hints ?? [])],
        link: brk.link ?? null,
        generic: brk.generic ?? null,
        details,
        developer_context: brk.developer_context ?? null
      };
      grouped.set(message, entry);
    }
    entry.count += 1;
    entry.details = entry.details || details;
    entry.developer_context =
      entry.developer_context || brk.developer_context || null;
  }
  return [...grouped.values()].sort((a, b) => b.count - a.count);
}

function paths(
  events: GraphBreak[],
  labels: SourceLabels,
  library: Set<string>
): CallPath[] {
  const found = new Map<string, CallPath>();
  for (const brk of events) {
    const stack = (brk.user_stack ?? []).map(l => frame(l, labels, library));
    const key = JSON.stringify(
      stack.filter(f => !f.library).map(f => [f.file, f.line, f.function])
    );
    const entry = found.get(key) ?? { count: 0, stack };
    entry.count += 1;
    found.set(key, entry);
  }
  return [...found.values()].sort((a, b) => b.count - a.count);
}

function site(
  file: string | null,
  line: number | null,
  events: Array<[number, GraphBreak]>,
  doc: TcxDocument,
  labels: SourceLabels,
  library: Set<string>
): BreakSite {
  const compiles = new Map<string, Compile>(doc.compiles.map(c => [c.id, c]));
  const breaks = events.map(([, b]) => b);
  let innermost: Location = {};
  outer: for (const brk of breaks) {
    for (const f of [...(brk.user_stack ?? [])].reverse()) {
      if (f && f.file === file && f.line === line) {
        innermost = f;
        break outer;
      }
    }
  }
  const frames = new Map<string, BreakFrame>(); // by function: torch makes one per resume point
  const resumes = new Map<string, string[]>();
  for (const brk of breaks) {
    const cid = brk.compile_id ?? null;
    const frameLoc: Location =
      (cid !== null ? compiles.get(cid)?.frame : null) ?? {};
    const key = JSON.stringify([
      frameLoc.function ?? null,
      frameLoc.file ?? null
    ]);
    const entry = frames.get(key) ?? {
      function: frameLoc.function ?? null,
      file: frameLoc.file ?? null,
      line: frameLoc.line ?? null,
      count: 0,
      compiles: []
    };
    entry.count += 1;
    if (cid !== null && !entry.compiles.includes(cid)) {
      entry.compiles.push(cid);
    }
    frames.set(key, entry);
    const name = resumeName(brk, frameLoc);
    if (name && !resumes.has(name)) {
      resumes.set(
        name,
        doc.compiles
          .filter(
            c => c.frame?.function === name && c.frame?.file === frameLoc.file
          )
          .map(c => c.id)
      );
    }
  }
  return {
    file,
    line,
    where: auditWhere(file, line, labels),
    function: innermost.function ?? null,
    code: innermost.code ?? null,
    library: file !== null && library.has(file),
    count: breaks.length,
    events: events.map(([i]) => i),
    compiles: breaks.map(b => b.compile_id ?? null),
    frames: [...frames.values()],
    reasons: reasons(breaks),
    paths: paths(breaks, labels, library),
    resume_functions: [...resumes.entries()]
      .filter(([, ids]) => ids.length)
      .map(([name, ids]) => ({ name, compiles: ids }))
  };
}

/** The document's graph breaks grouped by site, ranked: the most events, then the earliest. */
export function graphBreakAudit(doc: TcxDocument): BreakSite[] {
  const labels = sourceLabels(doc);
  const library = libraryFiles(doc);
  const groups = new Map<
    string,
    {
      file: string | null;
      line: number | null;
      events: Array<[number, GraphBreak]>;
    }
  >();
  doc.graph_breaks.forEach((brk, i) => {
    if (!brk || typeof brk !== 'object') {
      return;
    }
    const file = brk.file ?? null;
    const line = brk.line ?? null;
    const key = JSON.stringify([file, line]);
    const group = groups.get(key) ?? { file, line, events: [] };
    group.events.push([i, brk]);
    groups.set(key, group);
  });
  const sites = [...groups.values()].map(g =>
    site(g.file, g.line, g.events, doc, labels, library)
  );
  return sites.sort((a, b) => b.count - a.count || a.events[0] - b.events[0]);
}

/** Why a site counts what it counts, in the words the views show. */
export function countNote(s: BreakSite): string {
  if (s.count === 1) {
    return '1 break event.';
  }
  const parts = s.frames
    .map(f => `${f.function ?? '?'} ×${f.count}`)
    .join(', ');
  return `${s.count} break events: torch reports a break once per compile that reaches its line, recompiles included — here ${plural(s.frames.length, 'frame')} (${parts}).`;
}

/** Runs of a stack, outermost first: the user's frames one by one, library frames folded. */
export function foldStack(
  stack: StackFrame[]
): Array<
  | { library: false; frame: StackFrame }
  | { library: true; frames: StackFrame[] }
> {
  const out: Array<
    | { library: false; frame: StackFrame }
    | { library: true; frames: StackFrame[] }
  > = [];
  for (const f of stack) {
    const last = out[out.length - 1];
    if (!f.library) {
      out.push({ library: false, frame: f });
    } else if (last && last.library) {
      last.frames.push(f);
    } else {
      out.push({ library: true, frames: [f] });
    }
  }
  return out;
}
