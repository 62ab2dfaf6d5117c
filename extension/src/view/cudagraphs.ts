import { columnsOf, cudaGraphSections } from '../model/cudagraphs';
import { Context, TabView } from './context';
import { el, note, table } from './dom';

function freeTable(rows: Array<Record<string, unknown>>): HTMLElement {
  const keys = columnsOf(rows);
  return table(keys, rows.map(r => keys.map(k => (typeof r[k] === 'object' && r[k] !== null ? JSON.stringify(r[k]) : String(r[k] ?? '')))));
}

export function cudaGraphsTab(ctx: Context): TabView {
  const sections = cudaGraphSections(ctx.doc);
  const element = el('div', { class: 'tcx-cudagraphs' });
  if (!sections.length) {
    element.appendChild(note('No CUDA-graph data in this document.'));
    return { element };
  }
  for (const s of sections) {
    element.appendChild(el('section', null,
      el('h4', null, `Compile ${s.compile}`),
      s.skipReason !== null ? el('p', { class: 'tcx-warning' }, `CUDA graphs skipped: ${s.skipReason}`) : null,
      s.partitions.length ? el('div', null, el('p', null, `${s.partitions.length} partitions`), freeTable(s.partitions)) : null,
      s.skipped.length ? el('div', null, el('p', null, 'Skipped ops and reasons'), freeTable(s.skipped)) : null));
  }
  return { element };
}
