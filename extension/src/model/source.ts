/**
 * The Source tab: the user's code lines the document marks, with what torch.compile did at
 * each one, as Python decided them (the document's `source_marks`,
 * tcexplore/findings/source_marks.py; the HTML report draws the same): files in their
 * order (notebook cells first, library files and files only guards name folded after),
 * each marked line with its code and its marks in order. Nothing is decided here: a mark's
 * link becomes a place in the explorer, and a document saved before the marks were stored
 * shows a note instead.
 */

import { MarkLink, SourceMark, Target, TcxDocument } from './types';

export type MarkKind = SourceMark['kind'];

export interface Mark {
  kind: MarkKind;
  label: string;
  /** the tooltip (torch's reason of a break, the failed guards of a recompile, ...) */
  title: string;
  target?: Target;
  /** a 'time' or 'memory' mark: the line's share of the heaviest line's (the heat) */
  heat?: number;
  /** a 'guard' or 'op' mark: each guard's expression or node's name, with its compile */
  items: Array<{ compile: string; text: string; target?: Target }>;
}

export interface SourceLine {
  line: number;
  code: string;
  /** something went wrong here (a graph break, a recompile, a first divergence) */
  flagged: boolean;
  marks: Mark[];
}

export interface SourceFile {
  file: string;
  /** how the views name it: "cell [5]", a path inside site-packages, or the path */
  label: string;
  library: boolean;
  /** only guards point here: torch prints their paths cut to the last characters */
  guardsOnly: boolean;
  /** shown folded below the user's own files */
  folded: boolean;
  lines: SourceLine[];
}

/** A line's marks placed as the view draws them. */
export interface LineChips {
  /** breaks, recompiles, dynamic sizes, a first divergence, tracing: always shown, in order */
  first: Mark[];
  /** kernels: the view may fold some behind "+N more" */
  others: Mark[];
  /** the line's guards: one count chip that opens to the list */
  guards: Mark | null;
  /** the line's graph ops: one chip */
  nodes: Mark | null;
  /** the line's measured kernel time (profile), if any */
  time: Mark | null;
  /** the activation bytes saved for backward from this line, if any */
  memory: Mark | null;
}

const FIRST: MarkKind[] = [
  'break',
  'break-path',
  'recompile',
  'shape',
  'divergence',
  'tracing'
];

/** Why the Source tab shows no marks: a document saved before they were stored. */
export const OLD_MARKS_NOTE =
  'This document was saved before tcexplore stored its source marks, so none are shown here. ' +
  'Read it with tcexplore.load() in Python (which computes them) and display or save it again.';

/** A stored link as a place in the explorer (compile ids become the compile's index). */
export function markTarget(
  doc: TcxDocument,
  link: MarkLink | undefined
): Target | undefined {
  if (!link) {
    return undefined;
  }
  const compile =
    typeof link.compile === 'string'
      ? doc.compiles.findIndex(c => c.id === link.compile)
      : -1;
  switch (link.tab) {
    case 'graphs':
      return compile >= 0
        ? { tab: 'graphs', compile, graph: 'dynamo', node: link.node }
        : undefined;
    case 'fusion':
      return compile >= 0 && typeof link.output === 'number'
        ? { tab: 'fusion', compile, output: link.output, kernel: link.kernel }
        : undefined;
    case 'guards':
      return compile >= 0 ? { tab: 'guards', compile } : undefined;
    case 'overview':
    case 'shapes':
    case 'timing':
    case 'profile':
    case 'memory':
    case 'accuracy':
      return { tab: link.tab };
    default:
      return undefined;
  }
}

function mark(doc: TcxDocument, m: SourceMark): Mark {
  const target = markTarget(doc, m.link);
  return {
    kind: m.kind,
    label: m.label,
    title: m.title,
    target,
    heat: typeof m.heat === 'number' ? m.heat : undefined,
    items: (m.items ?? []).map(i => ({
      ...i,
      target:
        m.kind === 'guard'
          ? markTarget(doc, { tab: 'guards', compile: i.compile })
          : markTarget(doc, { tab: 'graphs', compile: i.compile, node: i.text })
    }))
  };
}

/** The marked files as stored; null for a document saved before they were (OLD_MARKS_NOTE). */
export function sourceFiles(doc: TcxDocument): SourceFile[] | null {
  const stored = doc.source_marks;
  if (!stored || !Array.isArray(stored.files)) {
    return null;
  }
  return stored.files.map(f => ({
    file: f.file,
    label: f.label,
    library: f.library,
    guardsOnly: f.guards_only,
    folded: f.folded,
    lines: f.lines.map(l => ({
      line: l.line,
      code: l.code,
      flagged: l.flagged,
      marks: l.marks.map(m => mark(doc, m))
    }))
  }));
}

/** What the Source tab says of the files it folds, as stored ("3 library files (torch)"). */
export function foldedSummary(doc: TcxDocument): string {
  return doc.source_marks?.folded ?? '';
}

/** The marks of a line, placed for display (see LineChips), in their stored order. */
export function lineChips(line: SourceLine): LineChips {
  const one = (kind: MarkKind) => line.marks.find(m => m.kind === kind) ?? null;
  return {
    first: line.marks.filter(m => FIRST.includes(m.kind)),
    others: line.marks.filter(m => m.kind === 'kernel'),
    guards: one('guard'),
    nodes: one('op'),
    time: one('time'),
    memory: one('memory')
  };
}
