/**
 * The memory finding, the Memory tab and the Source view's saved lines, on a real
 * explore(..., memory=True) document (tests/fixtures/memory; Python's memory_finding of it
 * is expected_finding.json, its saved activations by line are stored in it, and
 * tests/measure/test_memory.py holds Python to both).
 */

import * as fs from 'fs';
import * as path from 'path';

import { memoryFinding } from '../model/memory';
import { TcxDocument } from '../model/types';
import { Context } from '../view/context';
import { memoryTab } from '../view/memory';
import { overviewTab } from '../view/overview';
import { sourceTab } from '../view/source';
import { fixture } from './fixture';
import { OLD_MARKS_NOTE } from '../model/source';

const FIXTURE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'memory'
);
const read = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(FIXTURE, name), 'utf-8'));

function documentWithMemory(): TcxDocument {
  const memory = read('document.json');
  return {
    ...fixture(),
    memory: memory.memory,
    findings: memory.findings,
    saved_activations: memory.saved_activations,
    source_marks: memory.source_marks,
    compiles: memory.compiles.map((c: { id: string; memory: unknown }) => ({
      ...fixture().compiles[0],
      id: c.id,
      memory: c.memory
    }))
  } as TcxDocument;
}

function context(doc: TcxDocument, went: unknown[] = []): Context {
  return { doc, go: target => went.push(target) } as Context;
}

describe('memory', () => {
  it('reads the finding Python decided for the same document', () => {
    expect(memoryFinding(read('document.json') as TcxDocument)).toEqual(
      read('expected_finding.json')
    );
  });

  it('says nothing for a document without memory data', () => {
    expect(memoryFinding(fixture())).toBeNull();
  });

  it("shows saved tensors linked to their forward node and user line, and Inductor's buffers", () => {
    const went: unknown[] = [];
    const { element } = memoryTab(context(documentWithMemory(), went));
    expect(element.textContent).toContain(
      'compiled peaks at 248 kB vs eager 297 kB'
    );
    expect(element.querySelectorAll('.tcx-memory-saved tbody tr').length).toBe(
      5
    );
    expect(element.querySelector('.tcx-memory-buffers')?.textContent).toContain(
      'planned peak'
    );
    (
      element.querySelector(
        '.tcx-memory-saved tbody tr button'
      ) as HTMLButtonElement
    ).click();
    expect(went[0]).toEqual({
      tab: 'graphs',
      compile: 0,
      graph: 'aot:forward',
      node: 'relu'
    });
  });

  it('puts the finding on the Overview, linked to the Memory tab', () => {
    const went: unknown[] = [];
    const { element } = overviewTab(context(documentWithMemory(), went));
    const item = element.querySelector(
      '.tcx-finding[data-kind=memory]'
    ) as HTMLElement;
    expect(item.textContent).toContain(
      '131 kB of activations saved at lines 27-28'
    );
    (item.querySelector('button') as HTMLButtonElement).click();
    expect(went[0]).toEqual({ tab: 'memory' });
  });

  it('marks the lines that saved activations in the Source view, with a heat bar', () => {
    const went: unknown[] = [];
    const { element } = sourceTab(context(documentWithMemory(), went));
    const chips = [
      ...element.querySelectorAll('.tcx-mark-memory')
    ] as HTMLButtonElement[];
    expect(chips.map(c => c.textContent)).toEqual([
      'saved 65.5 kB',
      'saved 65.5 kB'
    ]);
    expect(element.querySelectorAll('.tcx-heat-memory').length).toBe(2);
    chips[0].click();
    expect(went[0]).toEqual({ tab: 'memory' });
    expect(chips[0].title).toBe(
      'activations saved for backward from this line: 65.5 kB (relu)'
    );
    expect(element.textContent).not.toContain(OLD_MARKS_NOTE);
  });

  it('says a document saved before its source marks were stored marks no line', () => {
    const doc = documentWithMemory();
    delete doc.source_marks;
    const { element } = sourceTab(context(doc));
    expect(element.querySelectorAll('.tcx-mark-memory').length).toBe(0);
    expect(element.querySelector('.tcx-note')!.textContent).toBe(
      OLD_MARKS_NOTE
    );
  });
});
