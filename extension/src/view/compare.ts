import { bestRow, cell, COLUMNS, comparisonRows } from '../model/compare';
import { Context, TabView } from './context';
import { el, note } from './dom';
import { createExplorer } from './explorer';

export function compareTab(ctx: Context): TabView {
  const rows = comparisonRows(ctx.doc);
  const element = el('div', { class: 'tcx-compare' });
  if (!rows.length) {
    element.appendChild(note('No comparison grid in this document: tcexplore.compare() makes one.'));
    return { element };
  }
  const best = bestRow(rows);
  const detail = el('div', { class: 'tcx-compare-detail' });
  const body = el('tbody', null, ...rows.map((r, i) => {
    const tr = el('tr', { class: `${i === best ? 'tcx-best' : ''} tcx-status-${cell(r, 'status')}` }, ...COLUMNS.map(([key]) => el('td', null, cell(r, key))));
    if (r.document) {
      tr.classList.add('tcx-clickable');
      tr.title = 'open this configuration';
      tr.addEventListener('click', () => detail.replaceChildren(el('h4', null, `${cell(r, 'backend')} / ${cell(r, 'mode')} / dynamic=${cell(r, 'dynamic')}`), createExplorer(r.document)));
    }
    return tr;
  }));
  element.append(
    el('table', { class: 'tcx-table' }, el('thead', null, el('tr', null, ...COLUMNS.map(([, label]) => el('th', null, label)))), body),
    el('p', { class: 'tcx-muted' }, 'Click a row to explore that configuration.'),
    detail);
  return { element };
}
