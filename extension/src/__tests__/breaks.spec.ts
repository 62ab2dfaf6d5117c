/**
 * The graph-break sites as the document stores them (decided by Python's audit:
 * tests/fixtures/graph_break_audit/expected.json, which tests/findings/test_graph_break_audit.py holds
 * Python to), the grouped Overview findings, cell labels and the Source tab's order, on a
 * real %%tcompile document (tests/fixtures/graph_break_audit).
 */

import * as fs from 'fs';
import * as path from 'path';

import {
  breakSites,
  foldStack,
  libraryFiles,
  OLD_SITES_NOTE
} from '../model/breaks';
import { sourceLabels, where, whereTitle } from '../model/format';
import { findings } from '../model/overview';
import { checkDocument } from '../model/schema';
import { TcxDocument } from '../model/types';
import { Context } from '../view/context';
import { overviewTab } from '../view/overview';

const FIXTURE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'graph_break_audit'
);

function load(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURE, name), 'utf-8'));
}

/** The fixture with what Python decided for it stored, as a document built now has it. */
function scenario(): TcxDocument {
  const checked = checkDocument({
    ...(load('document.json') as object),
    findings: load('findings.json'),
    graph_break_sites: load('expected.json')
  });
  if (!checked.ok) {
    throw new Error(checked.message);
  }
  return checked.doc;
}

function ctx(doc: TcxDocument, went: unknown[] = []): Context {
  return { doc, go: target => went.push(target) };
}

describe('break sites', () => {
  it('are the stored ones, drawn with the count note Python wrote', () => {
    const doc = scenario();
    expect(breakSites(doc)).toEqual(load('expected.json'));
    const text = overviewTab(ctx(doc)).element.textContent ?? '';
    for (const site of breakSites(doc)!) {
      expect(text).toContain(site.count_note);
    }
    expect(text).not.toContain(OLD_SITES_NOTE);
  });

  it('fold library frames in runs, as the document marked them', () => {
    const [site] = breakSites(scenario())!;
    const stack = site.paths[0].stack;
    const shown = stack.filter(f => !f.library);
    expect(shown.every(f => f.where.startsWith('cell ['))).toBe(true);
    const runs = foldStack(stack);
    expect(runs[0].library).toBe(true);
    expect(runs.flatMap(r => (r.library ? r.frames : [r.frame])).length).toBe(
      stack.length
    );
    expect(libraryFiles(scenario()).has('<frozen runpy>')).toBe(true);
  });

  it('are said to be missing from a document saved before they were stored, never decided here', () => {
    const doc = scenario();
    delete doc.graph_break_sites;
    expect(breakSites(doc)).toBeNull();
    const overview = overviewTab(ctx(doc)).element;
    expect(overview.querySelector('.tcx-sites-absent')!.textContent).toBe(
      OLD_SITES_NOTE
    );
    expect(overview.querySelectorAll('.tcx-finding-detail').length).toBe(0);
    expect(breakSites({ ...doc, graph_breaks: [] })).toEqual([]);
  });
});

describe('grouped findings', () => {
  it('gives one finding per break site and per recompiled function, each linked to its place', () => {
    const doc = scenario();
    const found = findings(doc);
    const breaks = found.filter(f => f.site);
    expect(breaks.map(f => f.text)).toEqual([
      'Graph break ×8 at cell [2], line 2 in scale: Unsupported Tensor.item() call with capture_scalar_outputs=False',
      'Graph break ×1 at cell [3], line 4 in <cell> (after its graph break at line 3): Failed to trace builtin operator'
    ]);
    expect(breaks[0].target).toEqual({
      tab: 'source',
      file: breaks[0].site!.file,
      line: 2
    });
    const recompiled = found.filter(f => f.recompiled);
    const frames = new Set(
      doc.compiles
        .filter(c => c.recompile_reasons.length)
        .map(c => c.id.split('/')[0])
    );
    expect(recompiled.length).toBe(frames.size);
    expect(recompiled.reduce((n, f) => n + f.recompiled!.count, 0)).toBe(
      doc.summary.recompiles
    );
    for (const f of recompiled) {
      expect(f.target).toEqual({
        tab: 'guards',
        compile: f.recompiled!.compiles[0].index
      });
    }
    expect(found.findIndex(f => f.site)).toBeLessThan(
      found.findIndex(f => f.recompiled)
    );
  });

  it("lists the document's findings exactly as Python decided them, in order", () => {
    const decided = load('findings.json') as Array<{
      severity: string;
      title: string;
      kind: string;
    }>;
    expect(findings(scenario()).map(f => [f.severity, f.kind, f.text])).toEqual(
      decided.map(f => [f.severity, f.kind, f.title])
    );
    const { element } = overviewTab(ctx(scenario()));
    expect(
      [...element.querySelectorAll('.tcx-findings > .tcx-finding')].map(li =>
        li.getAttribute('data-kind')
      )
    ).toEqual(decided.map(f => f.kind));
  });

  it('says a document saved before findings were recorded lists none, and why', () => {
    const doc = scenario();
    delete doc.findings;
    const { element } = overviewTab(ctx(doc));
    expect(element.querySelectorAll('.tcx-finding').length).toBe(0);
    expect(
      element.querySelector('.tcx-findings-absent')!.textContent
    ).toContain('saved before tcexplore recorded its findings');
  });

  it('shows the reason and hint in the Overview, never a temporary file name', () => {
    const went: unknown[] = [];
    const { element } = overviewTab(ctx(scenario(), went));
    const text = element.textContent ?? '';
    expect(text).toContain(
      'Unsupported Tensor.item() call with capture_scalar_outputs=False'
    );
    expect(text).toContain(
      'Hint: Set `torch._dynamo.config.capture_scalar_outputs = True`'
    );
    expect(text).toContain('cell [2], line 2');
    expect(text).not.toMatch(/ipykernel_\d+|\d{6,}\.py/);
    expect(element.querySelectorAll('.tcx-finding-break').length).toBe(2);
    expect(
      element.querySelector('.tcx-library-frames summary')!.textContent
    ).toMatch(/^\d+ library frames$/);
    (
      element.querySelector('.tcx-finding-break .tcx-link') as HTMLElement
    ).click();
    expect(went[0]).toMatchObject({ tab: 'source', line: 2 });
  });
});

describe('cell labels', () => {
  it('names cells "cell [n], line m" with the full path in the tooltip', () => {
    const doc = scenario();
    const labels = sourceLabels(doc);
    const [file] = Object.keys(labels).filter(f => labels[f] === 'cell [2]');
    expect(where({ file, line: 12 }, labels)).toBe('cell [2], line 12');
    expect(where({ file: '/home/me/model.py', line: 3 }, labels)).toBe(
      'model.py:3'
    );
    expect(whereTitle({ file, line: 12, code: 'x = 1' })).toBe(
      `${file}:12\nx = 1`
    );
  });
});
