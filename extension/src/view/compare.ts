/**
 * The grid of tcexplore.compare(): a headline, speedup and compile time per configuration
 * drawn to scale, and the table. A row opens its own explorer below the grid, the row
 * highlighted in the grid (the explorer has no Compare tab: the grid is right above it);
 * two picked rows open their diff. The grid is a notebook output of its own ("kind":
 * "comparison") and the Compare tab of a row's document shown on its own.
 */

import { firstLine } from '../model/format';
import {
  cell,
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
import { ComparisonRow } from '../model/types';
import { Inflate, inflateGzip, unpack } from '../model/unpack';
import { axisChart } from './charts';
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

/** A failed row's error: the line Python led it with (its first paragraph), the whole of
 * it behind a disclosure. */
function errorCell(row: ComparisonRow): HTMLElement | string {
  const error = row.error;
  if (!error) {
    return '';
  }
  const first = row.error_line ?? error;
  return first === error
    ? el('span', { class: 'tcx-error' }, error)
    : el(
        'details',
        { class: 'tcx-row-error' },
        el('summary', { class: 'tcx-error' }, first),
        el('pre', null, error)
      );
}

/** ok green, mismatch and error red; another status (random: a cause, not a verdict) plain. */
function statusCell(status: string): HTMLElement {
  const look =
    status === 'ok'
      ? ' tcx-status-ok'
      : status === 'mismatch' || status === 'error'
        ? ' tcx-status-failed'
        : '';
  return el('span', { class: `tcx-status${look}` }, status);
}

/** A row torch ran exactly as this one, folded into it: its label and torch's reason. */
function sameRun(same: { label: string; reason: string }): HTMLElement {
  return el(
    'div',
    {
      class: 'tcx-muted tcx-same-run',
      attrs: { title: `torch: ${same.reason}` }
    },
    `= ${same.label}: the same run (torch: “${same.reason}”)`
  );
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

function whyNot(r: ComparisonRow): string {
  if (r.document_left_out) {
    return `${rowLabel(r)}: its document is not in this output (${r.document_left_out.bytes.toLocaleString()} bytes): ${r.document_left_out.reason}`;
  }
  return `${rowLabel(r)}: this output does not hold its document${r.error ? ` (${firstLine(r.error)})` : ''}`;
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
  const winning = grid.winning;
  const detail = el('div', { class: 'tcx-compare-detail' });
  const show = (
    heading: string,
    content: Promise<unknown>,
    build: (value: unknown) => HTMLElement
  ) => {
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
  const body = el(
    'tbody',
    null,
    ...rows.map((r, i) => {
      const pick = el('input', {
        class: 'tcx-pick',
        attrs: {
          type: 'checkbox',
          'aria-label': `pick ${rowLabel(r)} for a diff`
        }
      });
      pick.disabled = !r.document;
      pick.addEventListener('click', event => event.stopPropagation());
      pick.addEventListener('change', () => {
        const at = picked.indexOf(i);
        if (pick.checked && at < 0) {
          picked.push(i);
        } else if (!pick.checked && at >= 0) {
          picked.splice(at, 1);
        }
        diffButton.disabled = picked.length !== 2;
      });
      const classes = [
        i === winning ? 'tcx-best' : '',
        i === current ? 'tcx-current' : ''
      ];
      const name =
        i === current
          ? el(
              'span',
              null,
              el('strong', null, rowLabel(r)),
              el('span', { class: 'tcx-muted' }, ' (this explorer)')
            )
          : rowLabel(r);
      const label = r.same_runs?.length
        ? el('span', null, name, ...r.same_runs.map(sameRun))
        : name;
      const tr = el(
        'tr',
        {
          class: classes.filter(Boolean).join(' '),
          attrs: { 'data-row': String(i), 'data-status': cell(r, 'status') }
        },
        el('td', null, pick),
        el('td', null, label),
        ...COLUMNS.map(([key]) =>
          el(
            'td',
            null,
            key === 'error'
              ? errorCell(r)
              : key === 'status'
                ? statusCell(cell(r, key))
                : cell(r, key)
          )
        )
      );
      if (i !== current) {
        tr.classList.add('tcx-clickable');
        tr.title = r.document
          ? "open this configuration's explorer"
          : whyNot(r);
        tr.addEventListener('click', () => open(i));
      }
      return tr;
    })
  );
  element.append(
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
      : []),
    chart(speedupChart(grid), 'speedup per configuration'),
    chart(compileChart(grid), 'compile time per configuration'),
    el(
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
    ),
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
