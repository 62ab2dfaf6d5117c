/**
 * The extension shows the same finding titles as the HTML report (tests/invariants.py's
 * report_shows_every_title holds the report to it): over the shared fixtures of real
 * documents (tests/fixtures: a dropout training step, a %%tcompile cell's breaks, the
 * shared view fixture's cell and timed call), the Overview draws every stored finding's
 * title, as Python wrote it.
 */
import * as fs from 'fs';
import * as path from 'path';

import { checkDocument } from '../model/schema';
import { createExplorer } from '../view/explorer';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'tests', 'fixtures');

function read(...parts: string[]): Record<string, unknown> {
  return JSON.parse(
    fs.readFileSync(path.join(FIXTURES, ...parts), 'utf-8')
  ) as Record<string, unknown>;
}

const DOCUMENTS: Array<[string, () => Record<string, unknown>]> = [
  ['labels', () => read('labels', 'document.json')],
  ['views/cell', () => read('views', 'cell.json')],
  ['views/timed', () => read('views', 'timed.json')],
  [
    'graph_break_audit',
    () => ({
      ...read('graph_break_audit', 'document.json'),
      findings: read('graph_break_audit', 'findings.json'),
      graph_break_sites: read('graph_break_audit', 'expected.json')
    })
  ]
];

describe('finding titles, as the report shows them', () => {
  it.each(DOCUMENTS)('%s: the Overview draws every stored title', (_, load) => {
    const checked = checkDocument(load());
    if (!checked.ok) {
      throw new Error(checked.message);
    }
    const overview = createExplorer(checked.doc).querySelector(
      '[role=tabpanel][data-tab=overview]'
    ) as HTMLElement;
    const shown = overview.textContent ?? '';
    const titles = (checked.doc.findings ?? []).map(f => f.title);
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) {
      expect(shown).toContain(title);
    }
  });
});
