import { absentTabs } from '../model/absent';
import { findings, origin, pipeline } from '../model/overview';
import { where } from '../model/format';
import { Context, TabView } from './context';
import { el, link, table } from './dom';

/** What the document does not hold, for the tabs hidden because of it. */
function absentLine(doc: Context['doc']): HTMLElement | null {
  const absent = absentTabs(doc);
  return absent.length ? el('p', { class: 'tcx-muted tcx-absent' }, `Not in this document: ${absent.map(a => a.what).join('; ')}.`) : null;
}

export function overviewTab(ctx: Context): TabView {
  const { doc } = ctx;
  const list = el('ul', { class: 'tcx-findings' }, ...findings(doc).map(f =>
    el('li', { class: `tcx-finding tcx-${f.severity}` },
      el('span', { class: 'tcx-badge' }, f.severity),
      ' ',
      f.target ? link(f.text, () => ctx.go(f.target!)) : f.text)
  ));
  const stages = el('div', { class: 'tcx-pipeline' });
  pipeline(doc).forEach((stage, i) => {
    if (i) {
      stages.appendChild(el('span', { class: 'tcx-arrow', attrs: { 'aria-hidden': 'true' } }, '→'));
    }
    stages.appendChild(el('div', { class: `tcx-stage${stage.active ? '' : ' tcx-inactive'}` },
      el('div', { class: 'tcx-stage-name' }, stage.name),
      ...stage.counts.map(c => el('div', { class: 'tcx-stage-count' }, c)),
      stage.time ? el('div', { class: 'tcx-stage-time' }, stage.time) : null));
  });
  const from = origin(doc);
  const missing = from.unavailable.length
    ? el('details', { class: 'tcx-unavailable', attrs: { open: '' } },
      el('summary', null, `Not available in this document (${from.unavailable.length}): its source does not record these; they are unknown, not empty`),
      table(['field', 'why'], from.unavailable.map(u => [el('code', null, u.field), u.reason])))
    : null;
  const compiles = el('ul', { class: 'tcx-compile-list' }, ...doc.compiles.map((c, i) =>
    el('li', null,
      link(`${c.id}`, () => ctx.go({ tab: 'guards', compile: i })),
      ` ${c.frame?.function ?? '?'} — ${where(c.frame)} `,
      el('span', { class: `tcx-status tcx-status-${c.status}` }, c.status))));
  return {
    element: el('div', { class: 'tcx-overview' },
      from.partial ? el('p', { class: 'tcx-error', attrs: { role: 'alert' } }, `Partial document: ${from.partial}`) : null,
      el('h3', null, 'Findings'), list,
      missing,
      el('h3', null, 'Pipeline'), stages,
      el('h3', null, `Compiles (${doc.compiles.length})`), compiles,
      absentLine(doc),
      el('p', { class: 'tcx-muted tcx-origin' }, from.line))
  };
}
