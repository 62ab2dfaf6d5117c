/**
 * The Source tab: the user's code lines the document references (it has file, line and
 * code of those lines, not whole files), with what happened at each one. The user's own
 * files come first (notebook cells in execution order); library files (site-packages,
 * torch, the standard library) and files named only by guards (torch shortens those paths,
 * so where they live is unknown) are folded after them. On a line, graph breaks and
 * recompiles come first and guards are one count.
 */

import { breakSites, libraryFiles, OLD_SITES_NOTE } from './breaks';
import {
  duration,
  formatBytes,
  microseconds,
  percent,
  plural,
  SourceLabels,
  sourceLabels
} from './format';
import { tracedFunctions } from './tracing';
import { OLD_SAVED_NOTE, savedActivations } from './memory';
import { shapeRows } from './shapes';
import { Location, Target, TcxDocument } from './types';

export type MarkKind =
  | 'break'
  | 'break-path'
  | 'recompile'
  | 'shape'
  | 'guard'
  | 'divergence'
  | 'tracing'
  | 'node'
  | 'kernel'
  | 'time'
  | 'memory';

export interface Mark {
  kind: MarkKind;
  label: string;
  /** a longer text for the tooltip (torch's reason of a break; a guard's compile id) */
  title?: string;
  target?: Target;
  /** a 'time' mark: the line's kernel time as a fraction of the heaviest line's (the heat);
   * a 'memory' mark: its saved activation bytes as a fraction of the heaviest line's */
  heat?: number;
}

export interface SourceLine {
  line: number;
  code: string;
  marks: Mark[];
}

export interface SourceFile {
  file: string;
  /** how the views name it: "cell [5]", a path inside site-packages, or the path */
  label: string;
  library: boolean;
  /** only guards point here: torch prints their paths cut to the last characters */
  guardsOnly: boolean;
  lines: SourceLine[];
}

/** A line's marks as the view shows them. */
export interface LineChips {
  /** breaks, recompiles and a first divergence: always shown, in that order */
  first: Mark[];
  /** kernels: the view may fold some behind "+N more" */
  others: Mark[];
  /** one count chip that opens to the list */
  guards: Mark[];
  /** one chip for the graph nodes of the line */
  nodes: Mark[];
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

class Collector {
  private files = new Map<string, Map<number, SourceLine>>();
  private beyondGuards = new Set<string>();

  /** `sources`: the texts the document carries (notebook cells), for lines it names without code */
  constructor(private sources: Record<string, string>) {}

  add(
    loc: Location | null | undefined,
    code: string | null | undefined,
    mark?: Mark
  ): void {
    if (!loc || !loc.file || typeof loc.line !== 'number') {
      return;
    }
    const source = this.sources[loc.file];
    const carried =
      typeof source === 'string' ? source.split('\n')[loc.line - 1] : undefined;
    // the carried text keeps the line's indentation; an empty string still says the file is the user's
    const text =
      [carried, code, loc.code].find(t => typeof t === 'string' && t) ??
      (typeof code === 'string' ? code : undefined);
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
      entry = {
        line: loc.line,
        code: typeof text === 'string' ? text : '',
        marks: []
      };
      lines.set(loc.line, entry);
    } else if (!entry.code && typeof text === 'string') {
      entry.code = text;
    }
    if (mark && mark.kind !== 'guard') {
      this.beyondGuards.add(loc.file);
    }
    if (
      mark &&
      !entry.marks.some(
        m =>
          m.kind === mark.kind &&
          m.label === mark.label &&
          m.title === mark.title
      )
    ) {
      entry.marks.push(mark);
    }
  }

  result(labels: SourceLabels, library: Set<string>): SourceFile[] {
    const files = [...this.files.entries()].map(([file, lines]) => ({
      file,
      label: fileLabel(file, labels),
      library: library.has(file),
      guardsOnly: !this.beyondGuards.has(file),
      lines: [...lines.values()]
        .filter(l => l.code || l.marks.length)
        .sort((a, b) => a.line - b.line)
    }));
    return files
      .map((f, i) => [f, i] as const)
      .sort(
        ([a, i], [b, j]) =>
          fileRank(a, labels) - fileRank(b, labels) ||
          cellNumber(a, labels) - cellNumber(b, labels) ||
          i - j
      )
      .map(([f]) => f);
  }
}

function cellNumber(f: SourceFile, labels: SourceLabels): number {
  const found = /\[(\d+)\]/.exec(labels[f.file] ?? '');
  return found ? Number(found[1]) : 0;
}

/** labelled files (cells) first, then the user's other files, then the folded ones */
function fileRank(f: SourceFile, labels: SourceLabels): number {
  return labels[f.file] ? 0 : f.guardsOnly ? 3 : f.library ? 2 : 1;
}

/** Whether the Source tab folds the file below the user's own. */
export function folded(f: SourceFile): boolean {
  return f.library || f.guardsOnly;
}

/** "cell [5]", "transformers/models/gpt2/modeling_gpt2.py" (inside site-packages), or the path. */
export function fileLabel(file: string, labels: SourceLabels): string {
  if (labels[file]) {
    return labels[file];
  }
  const inside = /[\\/](?:site-packages|dist-packages)[\\/](.+)$/.exec(file);
  return inside ? inside[1] : file;
}

/** The marks of a line, grouped and ordered for display (see LineChips). */
export function lineChips(line: SourceLine): LineChips {
  const first = line.marks
    .filter(m => FIRST.includes(m.kind))
    .sort((a, b) => FIRST.indexOf(a.kind) - FIRST.indexOf(b.kind));
  return {
    first,
    others: line.marks.filter(m => m.kind === 'kernel'),
    guards: line.marks.filter(m => m.kind === 'guard'),
    nodes: line.marks.filter(m => m.kind === 'node'),
    time: line.marks.find(m => m.kind === 'time') ?? null,
    memory: line.marks.find(m => m.kind === 'memory') ?? null
  };
}

/** What the marks lack in a document saved before it was stored, one note each. */
export function absentMarks(doc: TcxDocument): string[] {
  const out: string[] = [];
  if (breakSites(doc) === null) {
    out.push(OLD_SITES_NOTE);
  }
  if (savedActivations(doc) === null) {
    out.push(OLD_SAVED_NOTE);
  }
  return out;
}

export function sourceFiles(doc: TcxDocument): SourceFile[] {
  const sources = doc.explore?.sources;
  const c = new Collector(
    sources && typeof sources === 'object' ? sources : {}
  );
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
          c.add(loc, undefined, {
            kind: 'kernel',
            label: k.name,
            target: { tab: 'fusion', compile: ci, output: oi, kernel: k.name }
          });
        }
      }
    });
    for (const g of comp.guards) {
      if (g.user_location) {
        c.add(g.user_location, g.user_code, {
          kind: 'guard',
          label: g.expression,
          title: comp.id,
          target: { tab: 'guards', compile: ci }
        });
      }
    }
    // one mark per compile and line, its failed guards in the tooltip
    const failed = new Map<
      string,
      {
        loc: Location | null | undefined;
        code?: string | null;
        guards: string[];
      }
    >();
    for (const r of comp.recompile_reasons.flat()) {
      const loc = r.user_location ?? comp.frame;
      const key = JSON.stringify([loc?.file, loc?.line]);
      const entry = failed.get(key) ?? {
        loc,
        code: r.user_location ? r.user_code : undefined,
        guards: []
      };
      entry.guards.push(r.guard);
      failed.set(key, entry);
    }
    for (const { loc, code, guards } of failed.values()) {
      c.add(loc, code, {
        kind: 'recompile',
        label: `recompiled (${comp.id})`,
        title: guards.join('\n'),
        target: { tab: 'guards', compile: ci }
      });
    }
  });
  for (const shape of shapeRows(doc)) {
    for (const g of shape.guards) {
      c.add(g, undefined, {
        kind: 'shape',
        label: `${shape.name}: ${g.expr}`,
        title: `${g.kind === 'specialized' ? 'specializes' : 'guards'} ${shape.name} (${shape.symbol})`,
        target: { tab: 'shapes' }
      });
    }
  }
  (breakSites(doc) ?? []).forEach((site, i) => {
    const reason = site.reasons[0]?.message ?? '';
    const title = `#${i + 1}: ${reason}`;
    c.add({ file: site.file, line: site.line }, site.code ?? '', {
      kind: 'break',
      label: `graph break ×${site.count}`,
      title,
      target: { tab: 'overview' }
    });
    for (const path of site.paths) {
      for (const f of path.stack) {
        if (
          !f.library &&
          !(f.file === site.file && f.line === site.line) &&
          !(f.code ?? '').startsWith('%%')
        ) {
          c.add(f, f.code ?? '', {
            kind: 'break-path',
            label: `leads to graph break #${i + 1}`,
            title,
            target: { tab: 'overview' }
          });
        }
      }
    }
  });
  for (const f of tracedFunctions(doc).functions) {
    const frame = doc.compiles
      .map(comp => comp.frame)
      .find(fr => fr?.file === f.loc.file && fr?.line === f.loc.line);
    c.add(f.loc, frame?.code, {
      kind: 'tracing',
      label: `traced ${duration(f.cumMs)}`,
      title: `Dynamo traced ${f.function} for ${duration(f.cumMs)}${f.selfMs === null ? '' : ` (self ${duration(f.selfMs)})`} in ${f.compiles.join(', ')}`,
      target: { tab: 'timing' }
    });
  }
  for (const t of timedLines(doc)) {
    c.add(t.loc, t.loc.code, {
      kind: 'time',
      label: t.label,
      title: t.title,
      heat: t.heat,
      target: { tab: 'profile' }
    });
  }
  const saved = savedActivations(doc)?.lines ?? [];
  const heaviest = Math.max(...saved.map(l => l.bytes), 1);
  for (const l of saved) {
    c.add({ file: l.file, line: l.line, function: l.function }, l.code, {
      kind: 'memory',
      label: `saved ${formatBytes(l.bytes)}`,
      heat: l.bytes / heaviest,
      target: { tab: 'memory' },
      title: `activations saved for backward from this line: ${formatBytes(l.bytes)} (${l.nodes.join(', ')})`
    });
  }
  const d = doc.accuracy?.first_divergence;
  if (d?.source) {
    c.add(d.source, undefined, {
      kind: 'divergence',
      label: `first divergence: ${d.node}`,
      target: { tab: 'accuracy' }
    });
  }
  return c.result(sourceLabels(doc), libraryFiles(doc));
}

/** The profile's lines: time, share and heat (relative to the heaviest line). */
function timedLines(
  doc: TcxDocument
): Array<{ loc: Location; label: string; title: string; heat: number }> {
  const lines = (doc.profile?.lines ?? []).filter(
    l => l.file && typeof l.line === 'number'
  );
  const heaviest = Math.max(...lines.map(l => l.time_us), 1e-9);
  const per = doc.profile?.scope === 'run' ? 'over the run' : 'per call';
  return lines.map(l => ({
    loc: { file: l.file, line: l.line, code: l.code },
    label: `${microseconds(l.time_us)} · ${percent(l.share)}`,
    title: `kernel time ${per} from this line: ${microseconds(l.time_us)} (${percent(l.share)} of the step) in ${(l.kernels ?? []).join(', ')}`,
    heat: l.time_us / heaviest
  }));
}

/** "3 library files (transformers, torch) · 2 files only guards point to": the folded section. */
export function foldedSummary(files: SourceFile[]): string {
  const libraries = files.filter(f => f.library);
  const packages = [
    ...new Set(
      libraries
        .filter(f => f.label !== f.file)
        .map(f => f.label.split(/[\\/]/)[0])
    )
  ];
  const named =
    packages.length && packages.length <= 4 ? ` (${packages.join(', ')})` : '';
  const parts = libraries.length
    ? [`${plural(libraries.length, 'library file')}${named}`]
    : [];
  const guarded = files.length - libraries.length;
  if (guarded) {
    parts.push(
      `${plural(guarded, 'file')} only guards point to (torch shortens their paths)`
    );
  }
  return parts.join(' · ');
}
