/**
 * The Memory tab's model: the finding and the saved activations by line are the document's
 * (decided in Python, tcexplore/findings/memory.py); nothing is decided here.
 */

import { Compile, SavedActivations, TcxDocument } from './types';

/** Why the Source view marks no saved activations: a document saved before they were stored. */
export const OLD_SAVED_NOTE =
  'This document was saved before tcexplore stored its saved activations by line, so no line is marked with them here. ' +
  'Read it with tcexplore.load() in Python (which computes them) and display or save it again.';

/**
 * The activations saved for backward by line, as stored; null for a document whose
 * compiles saved some but that was saved before they were stored (show OLD_SAVED_NOTE).
 */
export function savedActivations(doc: TcxDocument): SavedActivations | null {
  if (doc.saved_activations) {
    return doc.saved_activations;
  }
  const saved = doc.compiles.some(c => c.memory?.saved_for_backward);
  return saved ? null : { bytes: 0, lines: [], recomputed: 0, budgets: [] };
}

/** #26's finding shape. */
export interface MemoryFinding {
  kind: 'memory';
  severity: 'warning' | 'info';
  title: string;
  count: number;
  locations: Array<{ file: string; line: number; function: string }>;
  evidence: string;
  advice: string | null;
}

/** The document's memory finding, decided in Python (tcexplore/findings/memory.py). */
export function memoryFinding(doc: TcxDocument): MemoryFinding | null {
  const f = (doc.findings ?? []).find(x => x.kind === 'memory');
  if (!f) {
    return null;
  }
  return {
    kind: 'memory',
    severity: f.severity === 'warning' ? 'warning' : 'info',
    title: f.title,
    count: f.count,
    locations: f.locations
      .filter(l => typeof l.line === 'number')
      .map(l => ({
        file: l.file,
        line: l.line as number,
        function: l.function ?? ''
      })),
    evidence: (f.details ?? []).join('; '),
    advice: f.advice
  };
}

/** Compiles with a memory section, with their index in the document. */
export function memoryCompiles(
  doc: TcxDocument
): Array<{ index: number; compile: Compile }> {
  return doc.compiles
    .map((compile, index) => ({ index, compile }))
    .filter(c => c.compile.memory);
}
