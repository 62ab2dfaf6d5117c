/**
 * The Source tab: the user's code lines the document references (it has file, line and
 * code of those lines, not whole files), with what happened at each one.
 */

import { firstLine } from './format';
import { Location, Target, TcxDocument } from './types';

export type MarkKind = 'break' | 'recompile' | 'guard' | 'divergence' | 'node' | 'kernel';

export interface Mark {
  kind: MarkKind;
  label: string;
  target?: Target;
}

export interface SourceLine {
  line: number;
  code: string;
  marks: Mark[];
}

export interface SourceFile {
  file: string;
  lines: SourceLine[];
}

class Collector {
  private files = new Map<string, Map<number, SourceLine>>();

  add(loc: Location | null | undefined, code: string | null | undefined, mark?: Mark): void {
    if (!loc || !loc.file || typeof loc.line !== 'number') {
      return;
    }
    const text = code ?? loc.code;
    let lines = this.files.get(loc.file);
    if (!lines) {
      if (typeof text !== 'string') {
        return; // a file only known by name (torch internals): nothing to show
      }
      lines = new Map();
      this.files.set(loc.file, lines);
    }
    let entry = lines.get(loc.line);
    if (!entry) {
      entry = { line: loc.line, code: typeof text === 'string' ? text : '', marks: [] };
      lines.set(loc.line, entry);
    } else if (!entry.code && typeof text === 'string') {
      entry.code = text;
    }
    if (mark && !entry.marks.some(m => m.kind === mark.kind && m.label === mark.label)) {
      entry.marks.push(mark);
    }
  }

  result(): SourceFile[] {
    return [...this.files.entries()].map(([file, lines]) => ({
      file,
      lines: [...lines.values()].filter(l => l.code || l.marks.length).sort((a, b) => a.line - b.line)
    }));
  }
}

export function sourceFiles(doc: TcxDocument): SourceFile[] {
  const c = new Collector();
  doc.compiles.forEach((comp, ci) => {
    for (const node of comp.dynamo_graph?.nodes ?? []) {
      c.add(node.source, undefined, {
        kind: 'node',
        label: node.name,
        target: { tab: 'graphs', compile: ci, graph: 'dynamo', node: node.name }
      });
    }
    comp.output_codes.forEach((out, oi) => {
      for (const k of out.kernels) {
        if (k.kind === 'extern') {
          continue;
        }
        for (const loc of k.user_lines ?? []) {
          c.add(loc, undefined, { kind: 'kernel', label: k.name, target: { tab: 'fusion', compile: ci, output: oi, kernel: k.name } });
        }
      }
    });
    for (const g of comp.guards) {
      if (g.user_location) {
        c.add(g.user_location, g.user_code, { kind: 'guard', label: g.expression, target: { tab: 'guards', compile: ci } });
      }
    }
    for (const group of comp.recompile_reasons) {
      for (const r of group) {
        c.add(r.user_location, r.user_code, { kind: 'recompile', label: `${comp.id}: ${r.guard}`, target: { tab: 'guards', compile: ci } });
      }
    }
  });
  for (const b of doc.graph_breaks) {
    const frame = (b.user_stack ?? []).find(f => f.file === b.file && f.line === b.line);
    c.add({ file: b.file, line: b.line }, frame?.code ?? '', { kind: 'break', label: firstLine(b.reason) });
  }
  const d = doc.accuracy?.first_divergence;
  if (d?.source) {
    c.add(d.source, undefined, { kind: 'divergence', label: `first divergence: ${d.node}`, target: { tab: 'accuracy' } });
  }
  return c.result();
}
