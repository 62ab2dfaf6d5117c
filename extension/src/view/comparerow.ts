/**
 * A row of the compare grid: a box to pick it for a diff, its configuration (the runs torch
 * ran exactly as it folded into it), its cells (status coloured, an error's first line) and,
 * where it has no document, why its explorer cannot open.
 */

import { cell, COLUMNS, Grid, rowLabel } from '../model/compare';
import { firstLine } from '../model/format';
import { ComparisonRow } from '../model/types';
import { el } from './dom';

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

/** Why a row opens no explorer: its document left out of this output, or never made. */
export function whyNot(r: ComparisonRow): string {
  if (r.document_left_out) {
    return `${rowLabel(r)}: its document is not in this output (${r.document_left_out.bytes.toLocaleString()} bytes): ${r.document_left_out.reason}`;
  }
  return `${rowLabel(r)}: this output does not hold its document${r.error ? ` (${firstLine(r.error)})` : ''}`;
}

/** A row of the grid: a box to pick it for a diff, its label (with the runs folded into it)
 * and its cells; clicking a row other than the current one opens it. */
export function gridRow(
  grid: Grid,
  i: number,
  onPick: (i: number, picked: boolean) => void,
  open: (i: number) => void
): HTMLTableRowElement {
  const { current } = grid;
  const r = grid.rows[i];
  const pick = el('input', {
    class: 'tcx-pick',
    attrs: {
      type: 'checkbox',
      'aria-label': `pick ${rowLabel(r)} for a diff`
    }
  });
  pick.disabled = !r.document;
  pick.addEventListener('click', event => event.stopPropagation());
  pick.addEventListener('change', () => onPick(i, pick.checked));
  const classes = [
    i === grid.winning ? 'tcx-best' : '',
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
    tr.title = r.document ? "open this configuration's explorer" : whyNot(r);
    tr.addEventListener('click', () => open(i));
  }
  return tr;
}
