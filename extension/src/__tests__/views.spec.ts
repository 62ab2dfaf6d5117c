/**
 * One view model (issue 42): the extension draws what Python decided and stored, and shows
 * for the documents of tests/fixtures/views (real runs: a %%tcompile cell with graph breaks
 * and recompiles, a timed exploration, a compare() grid, two ranks) exactly what
 * expected.json says every view shows, which tests/render/test_view_fixture.py holds the HTML
 * report to: each Source line's marks, the sidebar's listing, the timing verdict, the
 * recompiled functions, the failed guards' expected and actual, the lines where frames
 * broke, the resume functions' names, the grid's headline, best row and speedups, the
 * ranks' headline.
 */
import * as fs from 'fs';
import * as path from 'path';

import { breakLines } from '../model/bytecode';
import { labelOf } from '../model/notebook';
import { checkDocument } from '../model/schema';
import { tracedFunctions } from '../model/tracing';
import { TcxDocument } from '../model/types';
import { createComparisonView } from '../view/compare';
import { createExplorer } from '../view/explorer';
import { createRanksView } from '../view/ranks';

const FIXTURE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'views'
);

function read<T>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURE, name), 'utf-8')) as T;
}

interface Expected {
  source: Array<{
    label: string;
    folded: boolean;
    lines: Array<[number, boolean, Array<[string, string]>]>;
  }>;
  folded: string | null;
  listings: Record<string, { label: string; detail: string }>;
  timing: { severity: string; headline: string; short: string };
  recompiled: Array<{
    function: string;
    count: number;
    compiles: string[];
    guards: Array<{ guard: string; count: number }>;
  }>;
  failed_guards: Array<[string, string, string | null, string | null]>;
  break_lines: Record<string, number[]>;
  resume_labels: Record<string, string>;
  grid: {
    headline: string;
    best_row: number | null;
    winning_row: number | null;
    speedups: string[];
  };
  ranks: string;
}

const expected = read<Expected>('expected.json');

function document(name: string): TcxDocument {
  const checked = checkDocument(read(`${name}.json`));
  if (!checked.ok) {
    throw new Error(checked.message);
  }
  return checked.doc;
}

function open(doc: TcxDocument, tab: string): HTMLElement {
  const root = createExplorer(doc);
  (
    root.querySelector(`[role=tab][data-tab=${tab}]`) as HTMLButtonElement
  ).click();
  return root.querySelector(`[role=tabpanel][data-tab=${tab}]`) as HTMLElement;
}

/** The chip class the Source tab gives a stored kind (graph ops are drawn as 'node'). */
const CHIP: Record<string, string> = { op: 'node' };

describe('the shared view fixture', () => {
  it('marks each Source line with the stored marks, in order, flagging what went wrong', () => {
    const panel = open(document('cell'), 'source');
    const sections = [...panel.querySelectorAll('section.tcx-source-file')];
    expect(sections.map(s => s.querySelector('h4')!.textContent)).toEqual(
      expected.source.map(f => f.label)
    );
    expected.source.forEach((file, i) => {
      const drawn = file.lines.map(([line]) => {
        const row = sections[i].querySelector(
          `[data-line="${line}"]`
        ) as HTMLElement;
        return [
          line,
          row.classList.contains('tcx-line-flagged'),
          [...row.querySelectorAll('.tcx-chip')].map(c => [
            [...c.classList]
              .find(k => k.startsWith('tcx-mark-'))!
              .replace('tcx-mark-', ''),
            c.textContent
          ])
        ];
      });
      expect(drawn).toEqual(
        file.lines.map(([line, flagged, marks]) => [
          line,
          flagged,
          marks.map(([kind, label]) => [CHIP[kind] ?? kind, label])
        ])
      );
    });
  });

  it('lists every document in the sidebar as Python named it (the timing verdict, not the ratio)', () => {
    for (const [name, listing] of Object.entries(expected.listings)) {
      expect(labelOf(read(`${name}.json`))).toEqual(listing);
    }
    expect(expected.listings.timed.detail).toContain('no clear difference');
  });

  it("shows the timing verdict's headline in the Timing tab", () => {
    expect(open(document('timed'), 'timing').textContent).toContain(
      expected.timing.headline
    );
  });

  it('shows each recompiled function as Python grouped it, with its failed guards', () => {
    const overview = open(document('cell'), 'overview');
    const details = [...overview.querySelectorAll('.tcx-recompile-guards')].map(
      d => d.textContent ?? ''
    );
    for (const group of expected.recompiled) {
      const shown = details.find(d =>
        group.compiles.every(id => d.includes(id))
      );
      expect(shown).toBeDefined();
      if (group.guards.length > 1) {
        for (const g of group.guards) {
          expect(shown).toContain(`${g.guard} ×${g.count}`);
        }
      }
    }
  });

  it('shows each failed guard with the expected and actual value capture read', () => {
    const guards = open(document('cell'), 'guards');
    const rows = [...guards.querySelectorAll('.tcx-recompile-table tr')]
      .filter(tr => tr.querySelector('.tcx-expected'))
      .map(tr => [
        tr.querySelector('.tcx-expected')!.textContent,
        tr.querySelector('.tcx-actual')!.textContent
      ]);
    expect(rows).toEqual(
      expected.failed_guards.map(([, , want, got]) => [want ?? '', got ?? ''])
    );
  });

  it("reads where frames broke and resume functions' names as stored", () => {
    const doc = document('cell');
    for (const c of doc.compiles) {
      expect(breakLines(doc, c)).toEqual(expected.break_lines[c.id] ?? []);
    }
    const labels = tracedFunctions(doc).labels;
    for (const [name, label] of Object.entries(expected.resume_labels)) {
      if (name in labels) {
        expect(labels[name]).toBe(label);
      }
    }
  });

  it("draws the grid's headline, its row to pick and each speedup as stored", () => {
    const view = createComparisonView(read('grid.json'));
    expect(view.querySelector('.tcx-compare-headline')!.textContent).toBe(
      expected.grid.headline
    );
    const rows = [...view.querySelectorAll('.tcx-compare-table tbody tr')];
    expect(rows.findIndex(tr => tr.classList.contains('tcx-best'))).toBe(
      expected.grid.winning_row ?? -1
    );
    for (const text of expected.grid.speedups) {
      expect(view.textContent).toContain(text);
    }
  });

  it("draws the ranks' headline as stored", () => {
    const view = createRanksView(read('ranks.json'));
    expect(view.querySelector('.tcx-ranks-headline')!.textContent).toBe(
      expected.ranks
    );
  });
});
