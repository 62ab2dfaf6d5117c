/**
 * One cause, one label, everywhere: the extension draws the labels and verdicts Python stored
 * in the document, and shows for a real dropout training step (tests/fixtures/labels) exactly
 * what tests/findings/test_labels.py checks the HTML report shows (expected.json): outputs and
 * gradients that differ only because of random ops carry the random-op label, in the warning
 * look, never a failure's. The same for each graph-break site of a %%tcompile cell
 * (tests/fixtures/graph_break_audit): its finding's title and its count note.
 */
import * as fs from 'fs';
import * as path from 'path';

import { checkDocument } from '../model/schema';
import { TcxDocument } from '../model/types';
import { createExplorer } from '../view/explorer';

const FIXTURE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'labels'
);

function read<T>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURE, name), 'utf-8')) as T;
}

interface Expected {
  accuracy: {
    severity: string;
    headline: string;
    why: string | null;
    advice: string | null;
  };
  leaves: {
    outputs: Array<[string, string, string]>;
    gradients: Array<[string, string, string]>;
  };
  timing: {
    severity: string;
    headline: string;
    measurement: string;
    machine: string | null;
    first_call: string;
  };
  pipeline: Array<[string, boolean, string[]]>;
  calls: string;
  below_roof: string[];
}

/** The state Python gave a leaf -> the look the Accuracy tab gives its label. */
const LOOK: Record<string, string> = {
  match: 'tcx-ok',
  mismatch: 'tcx-bad',
  random: 'tcx-warning',
  other: 'tcx-muted'
};

function document(): TcxDocument {
  const checked = checkDocument(read('document.json'));
  if (!checked.ok) {
    throw new Error(checked.message);
  }
  return checked.doc;
}

function open(tab: string): HTMLElement {
  const root = createExplorer(document());
  (
    root.querySelector(`[role=tab][data-tab=${tab}]`) as HTMLButtonElement
  ).click();
  return root.querySelector(`[role=tabpanel][data-tab=${tab}]`) as HTMLElement;
}

/** [path, label, look] per row of the Accuracy tab's leaf table under `heading`. */
function leafRows(
  panel: HTMLElement,
  heading: string
): Array<[string, string, string]> {
  const title = [...panel.querySelectorAll('h4')].find(h =>
    h.textContent?.startsWith(heading)
  )!;
  const rows = (title.nextElementSibling as HTMLElement).querySelectorAll(
    'tbody tr'
  );
  return [...rows].map(tr => {
    const [pathCell, verdictCell] = [...tr.querySelectorAll('td')];
    const label = verdictCell.querySelector('span')!;
    return [
      pathCell.textContent ?? '',
      label.textContent ?? '',
      label.className
    ];
  });
}

describe('a dropout training step, as the HTML report shows it', () => {
  const expected = read<Expected>('expected.json');

  it('labels every output and gradient with the label Python stored, in its look', () => {
    const panel = open('accuracy');
    for (const [key, heading] of [
      ['outputs', 'Outputs'],
      ['gradients', 'Gradients']
    ] as const) {
      expect(leafRows(panel, heading)).toEqual(
        expected.leaves[key].map(([p, label, state]) => [
          p || '(output)',
          label,
          LOOK[state]
        ])
      );
    }
    const text = panel.textContent ?? '';
    expect(text).toContain(expected.accuracy.headline);
    expect(text).toContain(expected.accuracy.why!);
    expect(text).toContain(expected.accuracy.advice!);
  });

  it('never shows a difference random ops explain as a failure', () => {
    const panel = open('accuracy');
    const looks = [
      ...leafRows(panel, 'Outputs'),
      ...leafRows(panel, 'Gradients')
    ].map(([, label, look]) => [label, look]);
    expect(looks.length).toBeGreaterThan(1);
    expect(new Set(looks.map(l => JSON.stringify(l)))).toEqual(
      new Set([JSON.stringify(['differs (random ops)', 'tcx-warning'])])
    );
    expect(panel.querySelector('.tcx-bad')).toBeNull();
    const overview = open('overview');
    const accuracy = overview.querySelector('[data-kind=accuracy]')!;
    expect(accuracy.textContent).toContain(expected.accuracy.headline);
    expect(accuracy.className).toContain('tcx-warning');
  });

  it('shows the timing verdict and its lines as stored', () => {
    const text = open('timing').textContent ?? '';
    for (const line of [
      expected.timing.headline,
      expected.timing.measurement,
      expected.timing.first_call,
      expected.timing.machine!
    ]) {
      expect(text).toContain(line);
    }
  });

  it("draws the pipeline's stages as stored: no CUDA graph claimed on CPU", () => {
    const stages = [...open('overview').querySelectorAll('.tcx-stage')];
    expect(
      stages.map(s => [
        s.querySelector('.tcx-stage-name')!.textContent,
        !s.classList.contains('tcx-inactive'),
        [...s.querySelectorAll('.tcx-stage-count')].map(c => c.textContent)
      ])
    ).toEqual(expected.pipeline);
  });

  it("shows the profile's calls line and each below-roof text as stored", () => {
    const panel = open('profile');
    expect(panel.textContent).toContain(expected.calls);
    const why = [...panel.querySelectorAll('.tcx-kernel-times tbody tr')].map(
      tr => [...tr.querySelectorAll('td')].pop()!.textContent
    );
    expect(why.filter(t => t !== '—')).toEqual(expected.below_roof);
  });
});

describe('graph-break sites, as the HTML report shows them', () => {
  const BREAKS = path.join(FIXTURE, '..', 'graph_break_audit');
  const load = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(BREAKS, name), 'utf-8'));

  it("shows each site with its finding's title and count note, as tests/findings/test_labels.py finds them in the report", () => {
    const checked = checkDocument({
      ...load('document.json'),
      findings: load('findings.json'),
      graph_break_sites: load('expected.json')
    });
    if (!checked.ok) {
      throw new Error(checked.message);
    }
    const root = createExplorer(checked.doc);
    const overview = root.querySelector(
      '[role=tabpanel][data-tab=overview]'
    ) as HTMLElement;
    const sites = load('expected.json') as Array<{ count_note: string }>;
    const titles = (
      load('findings.json') as Array<{ kind: string; title: string }>
    )
      .filter(f => f.kind === 'graph_break')
      .map(f => f.title);
    expect(titles.length).toBe(sites.length);
    const items = [...overview.querySelectorAll('.tcx-finding-break')];
    expect(items.length).toBe(sites.length);
    items.forEach((item, i) => {
      expect(item.textContent).toContain(titles[i]);
      expect(item.textContent).toContain(sites[i].count_note);
    });
  });
});
