/**
 * The grid of tcexplore.compare(): a headline, speedup and compile time per configuration
 * drawn to scale, and the table. A row opens its own explorer below the grid, the row
 * highlighted in the grid (the explorer has no Compare tab: the grid is right above it);
 * two picked rows open their diff. The grid is a notebook output of its own ("kind":
 * "comparison") and the Compare tab of a row's document shown on its own.
 */

import {
  comparisonGrid,
  compileChart,
  COLUMNS,
  documentGrid,
  Grid,
  GridChart,
  OLD_GRID_NOTE,
  rowLabel,
  speedupChart
} from '../model/compare';
import { computeDiff } from '../model/docdiff';
import { checkDocument } from '../model/schema';
import { Inflate, inflateGzip, unpack } from '../model/unpack';
import { axisChart } from './charts';
import { gridRow, whyNot } from './comparerow';
import { Context, Host, TabView } from './context';
import { createDiffView } from './docdiff';
import { el, note } from './dom';
import { createExplorer } from './explorer';
import { go } from './links';

const CHART = { width: 780, labelWidth: 230 };

interface GridOptions {
  host?: Host;
  inflate?: Inflate;
}

function chart(c: GridChart, label: string): SVGSVGElement {
  return axisChart(c.axis, c.bars, { label, ...CHART, reference: c.reference });
}

/** A row's document as an explorer below the grid reads it: without a `comparison`
 * section, so that the explorer does not draw the grid a second time inside itself. */
async function rowDocument(
  grid: Grid,
  index: number,
  inflate: Inflate
): Promise<unknown> {
  const doc = (await unpack(grid.rows[index].document, inflate)) as Record<
    string,
    unknown
  >;
  return { ...doc, comparison: undefined };
}

/** The diff of two rows' documents, its links opening that row's explorer below it. */
async function rowDiff(
  grid: Grid,
  a: number,
  b: number,
  { host, inflate = inflateGzip }: GridOptions
): Promise<HTMLElement> {
  const [docA, docB] = (
    await Promise.all([
      rowDocument(grid, a, inflate),
      rowDocument(grid, b, inflate)
    ])
  ).map(checkDocument);
  if (!docA.ok || !docB.ok) {
    return note(
      `These rows cannot be compared: ${!docA.ok ? docA.message : ''} ${!docB.ok ? docB.message : ''}`,
      'tcx-error'
    );
  }
  const linked = el('div', { class: 'tcx-compare-linked' });
  const [labelA, labelB] = [rowLabel(grid.rows[a]), rowLabel(grid.rows[b])];
  const view = createDiffView(
    computeDiff(docA.doc, docB.doc, labelA, labelB),
    (side, target) => {
      const explorer = createExplorer(side === 'a' ? docA.doc : docB.doc, {
        host
      });
      linked.replaceChildren(
        el(
          'h4',
          null,
          `${side.toUpperCase()}: ${side === 'a' ? labelA : labelB}`
        ),
        explorer
      );
      go(explorer, target);
      return true;
    }
  );
  return el('div', null, view, linked);
}

/** What the grid says first: its headline, notes and the advice checked. */
function gridHead(grid: Grid): HTMLElement[] {
  return [
    grid.headline === null
      ? note(OLD_GRID_NOTE)
      : el('p', { class: 'tcx-compare-headline' }, grid.headline),
    ...(grid.notes ?? []).map(text =>
      el('p', { class: 'tcx-muted tcx-grid-note' }, text)
    ),
    ...(grid.advice
      ? [
          el(
            'p',
            {
              class: grid.advice.held
                ? 'tcx-ok tcx-advice-check'
                : 'tcx-note tcx-advice-check'
            },
            grid.advice.text
          )
        ]
      : [])
  ];
}

/** The grid's table around its rows. */
function gridTable(body: HTMLElement): HTMLElement {
  return el(
    'table',
    { class: 'tcx-table tcx-compare-table' },
    el(
      'thead',
      null,
      el(
        'tr',
        null,
        el('th', null, 'diff'),
        el('th', null, 'configuration'),
        ...COLUMNS.map(([, label]) => el('th', null, label))
      )
    ),
    body
  );
}

/** Shows in `detail` what `content` resolves to, built by `build`, under a heading; a note while it opens, the error if it fails. */
function shower(
  detail: HTMLElement
): (
  heading: string,
  content: Promise<unknown>,
  build: (value: unknown) => HTMLElement
) => void {
  return (heading, content, build) => {
    detail.replaceChildren(note(`Opening ${heading}…`, 'tcx-muted'));
    content.then(
      value => detail.replaceChildren(el('h4', null, heading), build(value)),
      error =>
        detail.replaceChildren(
          el(
            'p',
            { class: 'tcx-error' },
            `${heading} could not be opened: ${String(error)}`
          )
        )
    );
  };
}

/** The grid; `grid.current` is the row whose explorer it sits in (highlighted, not reopened). */
export function gridView(grid: Grid, options: GridOptions = {}): HTMLElement {
  const { rows, current } = grid;
  const { host, inflate = inflateGzip } = options;
  const element = el('div', { class: 'tcx-compare' });
  if (!rows.length) {
    element.appendChild(
      note(
        'No comparison grid in this document: tcexplore.compare() makes one.'
      )
    );
    return element;
  }
  const detail = el('div', { class: 'tcx-compare-detail' });
  const show = shower(detail);
  const open = (i: number) => {
    const r = rows[i];
    for (const tr of body.querySelectorAll('tr')) {
      tr.classList.toggle('tcx-opened', tr.dataset.row === String(i));
    }
    if (!r.document) {
      detail.replaceChildren(note(whyNot(r)));
      return;
    }
    show(rowLabel(r), rowDocument(grid, i, inflate), doc =>
      createExplorer(doc, { host })
    );
  };
  const picked: number[] = [];
  const diffButton = el(
    'button',
    { class: 'tcx-button', attrs: { type: 'button', disabled: '' } },
    'Diff the two picked rows'
  );
  diffButton.addEventListener('click', () => {
    if (picked.length === 2) {
      const [a, b] = [...picked].sort((x, y) => x - y);
      show(
        `Diff: ${rowLabel(rows[a])} → ${rowLabel(rows[b])}`,
        rowDiff(grid, a, b, options),
        view => view as HTMLElement
      );
    }
  });
  const onPick = (i: number, checked: boolean) => {
    const at = picked.indexOf(i);
    if (checked && at < 0) {
      picked.push(i);
    } else if (!checked && at >= 0) {
      picked.splice(at, 1);
    }
    diffButton.disabled = picked.length !== 2;
  };
  const body = el(
    'tbody',
    null,
    ...rows.map((_, i) => gridRow(grid, i, onPick, open))
  );
  element.append(
    ...gridHead(grid),
    chart(speedupChart(grid), 'speedup per configuration'),
    chart(compileChart(grid), 'compile time per configuration'),
    gridTable(body),
    el(
      'div',
      { class: 'tcx-toolbar' },
      el(
        'span',
        { class: 'tcx-muted' },
        current === null
          ? 'Click a row to open its explorer, or pick two to diff them.'
          : 'Click another row to open its explorer, or pick two to diff them.'
      ),
      diffButton
    ),
    detail
  );
  return element;
}

export function compareTab(ctx: Context): TabView {
  return { element: gridView(documentGrid(ctx.doc), { host: ctx.host }) };
}

/** A comparison output on its own (mime.ts picks it for "kind": "comparison"). */
export function createComparisonView(
  data: unknown,
  host?: Host,
  inflate: Inflate = inflateGzip
): HTMLElement {
  const grid = comparisonGrid(data);
  return el(
    'div',
    {
      class: 'tcx-explorer tcx-comparison-view',
      attrs: {
        'aria-label': `tcexplore: ${grid.rows.length} torch.compile configurations compared`
      }
    },
    el(
      'div',
      { class: 'tcx-comparison-body' },
      el('h3', null, 'torch.compile configurations compared'),
      gridView(grid, { host, inflate })
    )
  );
}
