/**
 * The Memory tab's model: saved activations per line, step for step as
 * tcexplore/findings/memory.py's saved_activations; the finding itself is the document's
 * (decided in Python, tcexplore/findings/memory.py).
 */

import { Compile, SavedLine, TcxDocument } from './types';

export interface SavedActivations {
  bytes: number;
  lines: SavedLine[];
  recomputed: number;
  budgets: number[];
}

export function savedActivations(doc: TcxDocument): SavedActivations {
  let total = 0;
  let recomputed = 0;
  const lines = new Map<string, SavedLine>();
  const budgets = new Set<number>();
  for (const record of doc.compiles) {
    const memory = record.memory;
    const saved = memory?.saved_for_backward;
    if (!memory || !saved) {
      continue;
    }
    total += saved.bytes_by_kind.activation;
    recomputed += (memory.recomputed ?? []).length;
    if (
      memory.activation_memory_budget !== null &&
      memory.activation_memory_budget !== undefined
    ) {
      budgets.add(memory.activation_memory_budget);
    }
    for (const line of saved.lines) {
      const key = `${line.file}\u0000${line.line}`;
      const entry = lines.get(key) ?? {
        file: line.file,
        line: line.line,
        function: line.function,
        code: line.code,
        bytes: 0,
        nodes: []
      };
      entry.bytes += line.bytes;
      entry.nodes = entry.nodes.concat(line.nodes);
      lines.set(key, entry);
    }
  }
  const ordered = [...lines.values()].sort((a, b) => b.bytes - a.bytes);
  return {
    bytes: total,
    lines: ordered,
    recomputed,
    budgets: [...budgets].sort((a, b) => a - b)
  };
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

/** Saved-activation bytes per source line (file -> line -> bytes): the Source view's heat. */
export function savedBytesByLine(
  doc: TcxDocument
): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  for (const line of savedActivations(doc).lines) {
    const lines = out.get(line.file) ?? new Map<number, number>();
    lines.set(line.line, (lines.get(line.line) ?? 0) + line.bytes);
    out.set(line.file, lines);
  }
  return out;
}
