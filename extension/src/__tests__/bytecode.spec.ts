/**
 * The Bytecode tab, the compile tree and tracing time on a real capture
 * (tests/fixtures/bytecode/document.json: a print break after two side effects).
 */

import * as fs from 'fs';
import * as path from 'path';

import {
  breakLines,
  bytecodePicks,
  firstPick,
  modifiedRows,
  originalRows
} from '../model/bytecode';
import { compileTree, TreeNode } from '../model/compiletree';
import { checkDocument } from '../model/schema';
import { sourceFiles } from '../model/source';
import { tracedFunctions, tracingChart } from '../model/tracing';
import { TcxDocument } from '../model/types';
import { createExplorer } from '../view/explorer';

const FIXTURE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'bytecode',
  'document.json'
);

function load(): TcxDocument {
  const checked = checkDocument(JSON.parse(fs.readFileSync(FIXTURE, 'utf-8')));
  if (!checked.ok) {
    throw new Error(checked.message);
  }
  return checked.doc;
}

describe('bytecode view-model', () => {
  const doc = load();
  const first = doc.compiles[0];

  it('marks each modified instruction with the step it was read into', () => {
    const rows = modifiedRows(first.bytecode!);
    const marked = (kind: string) =>
      rows.filter(r => r.mark === kind).map(r => `${r.opname} ${r.argrepr}`);
    expect(
      marked('graph').some(
        t => t.startsWith('LOAD_GLOBAL') && t.includes('__compiled_fn_')
      )
    ).toBe(true);
    expect(marked('graph').some(t => t.startsWith('CALL'))).toBe(true);
    expect(marked('side_effect')).toEqual(
      expect.arrayContaining(['STORE_SUBSCR '])
    );
    expect(marked('eager').some(t => t.startsWith('CALL'))).toBe(true);
    expect(marked('resume').some(t => t.includes('__resume_at_'))).toBe(true);
  });

  it('marks the original line that broke and where the resume function goes on', () => {
    const rows = originalRows(doc, first);
    const [jump] = first.bytecode!.resume_jumps;
    expect(breakLines(doc, first)).toEqual([jump.line]);
    expect(
      rows.filter(r => r.mark === 'resume-point').map(r => r.offset)
    ).toEqual([String(jump.offset)]);
    expect(
      rows.filter(r => r.mark === 'break').every(r => r.line === jump.line)
    ).toBe(true);
  });

  it('opens on the compile that jumps into a resume function', () => {
    expect(firstPick(doc)).toBe(0);
    expect(bytecodePicks(doc).map(p => p.label)).toEqual([
      '0/0 · f · breaks',
      expect.stringMatching(/^1\/0 · torch_dynamo_resume_in_f_at_\d+$/)
    ]);
  });
});

describe('compile tree', () => {
  const doc = load();

  function leaves(nodes: TreeNode[]): TreeNode[] {
    return nodes.flatMap(n => [
      ...(n.compiles.length ? [n] : []),
      ...leaves(n.children)
    ]);
  }

  it('hangs every compile under its frame at the end of its call path, library frames folded', () => {
    const found = leaves(compileTree(doc));
    expect(found.flatMap(n => n.compiles.map(c => c.id)).sort()).toEqual([
      '0/0',
      '1/0'
    ]);
    const resume = found.find(n => n.compiles.some(c => c.id === '1/0'))!;
    expect(resume.compiles[0].resumeOf?.compile_id).toBe('0/0');
    const broke = found.find(n => n.compiles.some(c => c.id === '0/0'))!;
    expect(broke.compiles[0].restarts).toBe(1);
    expect(broke.compiles[0].restartReason).toBe(
      'Failed to trace builtin operator'
    );
  });
});

describe('tracing time', () => {
  const doc = load();

  it('adds each function up over the compiles and draws it to scale', () => {
    const summary = tracedFunctions(doc);
    expect(summary.sources).toEqual(['chromium_events']);
    expect(summary.functions.map(f => f.function)).toEqual(
      expect.arrayContaining(['f'])
    );
    const chart = tracingChart(summary)!;
    expect(chart.bars[0].length).toBeLessThanOrEqual(1);
    expect(chart.bars[0].label).toBe(summary.functions[0].function);
  });

  it("puts a tracing chip on the function's first line in Source", () => {
    const marks = sourceFiles(doc)!.flatMap(f => f.lines.flatMap(l => l.marks));
    expect(
      marks.some(m => m.kind === 'tracing' && m.label.startsWith('traced '))
    ).toBe(true);
  });
});

describe('Bytecode tab', () => {
  it("shows both bytecodes side by side and highlights a step's instructions", () => {
    const root = createExplorer(load(), {
      start: { tab: 'bytecode', compile: 0 }
    });
    document.body.appendChild(root);
    const panel = root.querySelector(
      '[role=tabpanel][data-tab=bytecode]'
    ) as HTMLElement;
    const sides = panel.querySelectorAll('.tcx-bc-side');
    expect(sides.length).toBe(2);
    expect(sides[0].querySelectorAll('tbody tr').length).toBeGreaterThan(10);
    expect(
      sides[1].querySelectorAll('tr.tcx-bc-mark-graph').length
    ).toBeGreaterThan(0);
    const eager = panel.querySelector('li.tcx-bc-step-eager') as HTMLElement;
    expect(eager.textContent).toContain("print('side effect')");
    eager.click();
    expect(
      sides[1].querySelectorAll('tr.tcx-bc-active').length
    ).toBeGreaterThan(0);
    expect(panel.querySelector('li.tcx-bc-step-resume')?.textContent).toMatch(
      /goes on at line \d+ in torch_dynamo_resume_in_f_at_\d+/
    );
    root.remove();
  });
});
