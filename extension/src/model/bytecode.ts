/**
 * The Bytecode tab: the original and the modified bytecode of a transformed frame side by
 * side, each instruction with its source line, the modified code's instructions marked by
 * the step of the reading they were read from (the call into the compiled graph, eager
 * calls, replayed side effects, jumps into resume functions), the original's marked where
 * the frame broke and where each resume function goes on. Everything comes from the
 * document's `bytecode` section (capture read the instructions and the steps).
 */

import {
  Bytecode,
  Compile,
  Instruction,
  ReadingStep,
  ResumeJump,
  StepKind,
  TcxDocument
} from './types';

export interface BytecodeRow {
  index: number;
  /** the source line, shown on the first instruction of each line */
  line: number | null;
  startsLine: boolean;
  offset: string;
  opname: string;
  argrepr: string;
  /** a jump target's label (L1, or the offset) */
  label: string | null;
  /** the step this instruction was read into (modified), or what it is (original) */
  mark: StepKind | 'break' | 'resume-point' | 'wrapper' | null;
  step: number | null;
}

export interface Pick {
  index: number;
  label: string;
}

/** The compiles that have bytecode, as the picker lists them. */
export function bytecodePicks(doc: TcxDocument): Pick[] {
  return doc.compiles.flatMap((c, index) =>
    c.bytecode
      ? [
          {
            index,
            label: `${c.id} · ${c.frame?.function ?? '?'}${c.bytecode.resume_jumps.length ? ' · breaks' : ''}`
          }
        ]
      : []
  );
}

/** The compile the tab opens with: the first one that jumps into a resume function. */
export function firstPick(doc: TcxDocument): number | null {
  const picks = bytecodePicks(doc);
  const breaking = picks.find(
    p => doc.compiles[p.index].bytecode!.resume_jumps.length
  );
  return (breaking ?? picks[0])?.index ?? null;
}

function row(
  i: Instruction,
  index: number,
  mark: BytecodeRow['mark'],
  step: number | null
): BytecodeRow {
  return {
    index,
    line: i.line,
    startsLine: Boolean(i.starts_line),
    offset: i.offset === null || i.offset === undefined ? '' : String(i.offset),
    opname: i.opname,
    argrepr:
      i.argrepr ?? (i.arg === null || i.arg === undefined ? '' : String(i.arg)),
    label: i.label ?? null,
    mark,
    step
  };
}

/** The modified code's rows, each marked by the step that read it (helpers' too). */
export function modifiedRows(b: Bytecode): BytecodeRow[] {
  const stepOf = new Map<number, number>();
  b.reading.steps.forEach((s, si) =>
    s.instructions.forEach(i => stepOf.set(i, si))
  );
  return b.modified.instructions.map((ins, index) => {
    const step = stepOf.get(index);
    return row(
      ins,
      index,
      ins.wrapper
        ? 'wrapper'
        : step === undefined
          ? null
          : b.reading.steps[step].kind,
      step ?? null
    );
  });
}

/** The lines of the frame's own code where it broke, as Python decided them (the
 * document's `break_lines`, tcexplore/findings/break_lines.py); none for a document saved
 * before they were stored. */
export function breakLines(doc: TcxDocument, c: Compile): number[] {
  return doc.break_lines?.[c.id] ?? [];
}

/** The original code's rows: the instructions of the line that broke, and where each
 * resume function goes on (its offset). */
export function originalRows(doc: TcxDocument, c: Compile): BytecodeRow[] {
  const b = c.bytecode!;
  const broke = new Set(breakLines(doc, c));
  const resumes = new Set(b.resume_jumps.map(j => j.offset));
  return b.original.instructions.map((ins, index) => {
    const mark = ins.wrapper
      ? 'wrapper'
      : ins.offset !== null && resumes.has(ins.offset)
        ? 'resume-point'
        : ins.line !== null && broke.has(ins.line)
          ? 'break'
          : null;
    return row(ins, index, mark, null);
  });
}

/** What a step says, in the reading: a short word for its kind. */
export const STEP_WORDS: Record<StepKind, string> = {
  graph: 'compiled graph',
  eager: 'runs eagerly',
  side_effect: 'side effect',
  resume: 'resume',
  helper: 'Dynamo helper',
  local: 'local',
  return: 'return',
  branch: 'branch',
  unread: 'not read'
};

/** A resume step's jump (the section's jumps come in the order of its resume steps). */
export function jumpOf(b: Bytecode, step: ReadingStep): ResumeJump | null {
  const resumeSteps = b.reading.steps.filter(s => s.kind === 'resume');
  return b.resume_jumps[resumeSteps.indexOf(step)] ?? null;
}

/** How the section was heard, for its note. */
export function sourceNote(b: Bytecode): string {
  return b.source === 'bytecode_hook'
    ? "From torch's bytecode hook during the capture, disassembled by dis."
    : 'From the *_ORIGINAL_BYTECODE / *_MODIFIED_BYTECODE artifacts torch writes to TORCH_TRACE for resume functions.';
}
