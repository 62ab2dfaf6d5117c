/**
 * The Memory tab's model and the memory finding, step for step as
 * tcexplore/memory_finding.py (saved_activations, memory_finding): the same numbers and
 * words from the same document.
 */

import { Compile, SavedLine, TcxDocument } from './types';

const WORTH_A_WARNING = 0.10;

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) {
    return '?';
  }
  for (const [unit, size] of [['GB', 1e9], ['MB', 1e6], ['kB', 1e3]] as Array<[string, number]>) {
    if (Math.abs(n) >= size) {
      return `${Number((n / size).toPrecision(3))} ${unit}`;
    }
  }
  return `${Math.trunc(n)} B`;
}

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
    if (memory.activation_memory_budget !== null && memory.activation_memory_budget !== undefined) {
      budgets.add(memory.activation_memory_budget);
    }
    for (const line of saved.lines) {
      const key = `${line.file}\u0000${line.line}`;
      const entry = lines.get(key) ?? { file: line.file, line: line.line, function: line.function, code: line.code, bytes: 0, nodes: [] };
      entry.bytes += line.bytes;
      entry.nodes = entry.nodes.concat(line.nodes);
      lines.set(key, entry);
    }
  }
  const ordered = [...lines.values()].sort((a, b) => b.bytes - a.bytes);
  return { bytes: total, lines: ordered, recomputed, budgets: [...budgets].sort((a, b) => a - b) };
}

function lineSpan(lines: SavedLine[]): string {
  const numbers = [...new Set(lines.map(l => l.line))].sort((a, b) => a - b);
  if (!numbers.length) {
    return '';
  }
  if (numbers.length === 1) {
    return `line ${numbers[0]}`;
  }
  if (numbers[numbers.length - 1] - numbers[0] === numbers.length - 1) {
    return `lines ${numbers[0]}-${numbers[numbers.length - 1]}`;
  }
  return `lines ${numbers.join(', ')}`;
}

function percent(x: number): string {
  const p = Math.round(x * 100);
  return `${p >= 0 ? '+' : ''}${p}%`;
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

export function memoryFinding(doc: TcxDocument): MemoryFinding | null {
  const saved = savedActivations(doc);
  const peaks = doc.memory?.peak_bytes ?? null;
  if (!saved.lines.length && !peaks) {
    return null;
  }
  const top = saved.lines.slice(0, 4);
  const covered = top.reduce((sum, l) => sum + l.bytes, 0);
  let severity: MemoryFinding['severity'] = 'info';
  let title = `${formatBytes(saved.bytes)} of activations saved for backward`;
  if (peaks && peaks.eager === null) {
    title = `the run peaked at ${formatBytes(peaks.compiled.peak_bytes)}`;
  } else if (peaks && peaks.eager) {
    const eager = peaks.eager.above_before_bytes;
    const compiled = peaks.compiled.above_before_bytes;
    const change = eager ? ` (${percent((compiled - eager) / eager)})` : '';
    title = `compiled peaks at ${formatBytes(compiled)} vs eager ${formatBytes(eager)}${change}`;
    if (eager && compiled > eager * (1 + WORTH_A_WARNING)) {
      severity = 'warning';
    }
  }
  const evidence: string[] = [];
  if (top.length) {
    evidence.push(`${formatBytes(covered)} of activations saved at ${lineSpan(top)} (${formatBytes(saved.bytes)} in all)`);
  }
  if (saved.recomputed) {
    evidence.push(`${saved.recomputed} forward nodes recomputed in backward`);
  }
  if (saved.budgets.length) {
    evidence.push(`activation_memory_budget in force: ${saved.budgets.join(', ')}`);
  }
  if (peaks) {
    evidence.push(`peaks measured with ${peaks.how.split(':')[0]}`);
  }
  let advice: string | null = null;
  if (top.length) {
    const functions = [...new Set(top.map(l => l.function))].sort();
    advice = `consider activation checkpointing (torch.utils.checkpoint) around ${functions.join(', ')} (${lineSpan(top)}), or ` +
      'torch._functorch.config.activation_memory_budget=0.5 to let the partitioner recompute instead of saving';
  }
  return {
    kind: 'memory', severity, title, count: saved.lines.length,
    locations: top.map(l => ({ file: l.file, line: l.line, function: l.function })),
    evidence: evidence.join('; '), advice
  };
}

/** Compiles with a memory section, with their index in the document. */
export function memoryCompiles(doc: TcxDocument): Array<{ index: number; compile: Compile }> {
  return doc.compiles.map((compile, index) => ({ index, compile })).filter(c => c.compile.memory);
}

/** Saved-activation bytes per source line (file -> line -> bytes): the Source view's heat. */
export function savedBytesByLine(doc: TcxDocument): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  for (const line of savedActivations(doc).lines) {
    const lines = out.get(line.file) ?? new Map<number, number>();
    lines.set(line.line, (lines.get(line.line) ?? 0) + line.bytes);
    out.set(line.file, lines);
  }
  return out;
}
