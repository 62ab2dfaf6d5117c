import { bestRow, cell, COLUMNS, comparisonRows } from '../model/compare';
import { computeDiff } from '../model/docdiff';
import { checkDocument } from '../model/schema';
import { ComparisonRow } from '../model/types';
import { Context, Host, TabView } from './context';
import { createDiffView } from './docdiff';
import { el, note } from './dom';
import { createExplorer } from './explorer';
import { go } from './links';

function rowLabel(r: ComparisonRow): string {
  return `${cell(r, 'backend')} / ${cell(r, 'mode')} / dynamic=${cell(r, 'dynamic')}`;
}

/** The diff of two rows' documents, its links opening that row's explorer below it. */
function rowDiff(a: ComparisonRow, b: ComparisonRow, host?: Host): HTMLElement {
  const docA = checkDocument(a.document);
  const docB = checkDocument(b.document);
  if (!docA.ok || !docB.ok) {
    return note(`These rows cannot be compared: ${!docA.ok ? docA.message : ''} ${!docB.ok ? docB.message : ''}`, 'tcx-error');
  }
  const linked = el('div', { class: 'tcx-compare-linked' });
  const view = createDiffView(computeDiff(docA.doc, docB.doc, rowLabel(a), rowLabel(b)), (side, target) => {
    const row = side === 'a' ? a : b;
    const explorer = createExplorer(row.document, { host });
    linked.replaceChildren(el('h4', null, `${side.toUpperCase()}: ${rowLabel(row)}`), explorer);
    go(explorer, target);
    return true;
  });
  return el('div', null, view, linked);
}

export function compareTab(ctx: Context): TabView {
  const rows = comparisonRows(ctx.doc);
  const element = el('div', { class: 'tcx-compare' });
  if (!rows.length) {
    element.appendChild(note('No comparison grid in this document: tcexplore.compare() makes one.'));
    return { element };
  }
  const best = bestRow(rows);
  const detail = el('div', { class: 'tcx-compare-detail' });
  const picked: number[] = [];
  const diffButton = el('button', { class: 'tcx-button', attrs: { type: 'button', disabled: '' } }, 'Diff the two picked rows');
  diffButton.addEventListener('click', () => {
    if (picked.length === 2) {
      const [a, b] = [...picked].sort((x, y) => x - y);
      detail.replaceChildren(el('h4', null, `Diff: ${rowLabel(rows[a])} → ${rowLabel(rows[b])}`), rowDiff(rows[a], rows[b], ctx.host));
    }
  });
  const body = el('tbody', null, ...rows.map((r, i) => {
    const pick = el('input', { class: 'tcx-pick', attrs: { type: 'checkbox', 'aria-label': `pick ${rowLabel(r)} for a diff` } });
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
    const tr = el('tr', { class: `${i === best ? 'tcx-best' : ''} tcx-status-${cell(r, 'status')}` }, el('td', null, pick), ...COLUMNS.map(([key]) => el('td', null, cell(r, key))));
    if (r.document) {
      tr.classList.add('tcx-clickable');
      tr.title = 'open this configuration';
      tr.addEventListener('click', () => detail.replaceChildren(el('h4', null, rowLabel(r)), createExplorer(r.document, { host: ctx.host })));
    }
    return tr;
  }));
  element.append(
    el('table', { class: 'tcx-table' }, el('thead', null, el('tr', null, el('th', null, 'diff'), ...COLUMNS.map(([, label]) => el('th', null, label)))), body),
    el('div', { class: 'tcx-toolbar' }, el('span', { class: 'tcx-muted' }, 'Click a row to explore that configuration, or pick two to diff them.'), diffButton),
    detail);
  return { element };
}
