/**
 * The graph-break audit as the document carries it (`graph_break_sites`, decided in
 * Python by tcexplore/findings/graph_break_audit.py): the break events grouped by the line
 * that broke, most events first, each with torch's reasons, the call paths that reached
 * it and why it counts what it counts. Nothing is decided here; a document saved before
 * the sites were stored has none, and the views say so.
 */

import { BreakSite, StackFrame, TcxDocument } from './types';

/** Why a view shows no break sites: a document saved before they were stored. */
export const OLD_SITES_NOTE =
  'This document was saved before tcexplore stored its graph breaks grouped by site, so none are shown here. ' +
  'Read it with tcexplore.load() in Python (which computes them) and display or save it again.';

/** "f after line 19" for Dynamo's torch_dynamo_resume_in_f_at_19 (the document's
 * `resume_labels`, named in Python by tcexplore/findings/resume_labels.py); null for any
 * other function, or a document saved before the labels were stored. */
export function resumeLabel(
  doc: Pick<TcxDocument, 'resume_labels'>,
  name: string | null | undefined
): string | null {
  return (name && doc.resume_labels?.[name]) || null;
}

/**
 * The document's break sites as stored; none for a document without graph breaks; null
 * for one with breaks saved before the sites were stored (show OLD_SITES_NOTE).
 */
export function breakSites(doc: TcxDocument): BreakSite[] | null {
  if (Array.isArray(doc.graph_break_sites)) {
    return doc.graph_break_sites;
  }
  return doc.graph_breaks.length ? null : [];
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
