import { where } from '../model/format';
import { guardTypes, recompileRows } from '../model/guards';
import { Context, TabView } from './context';
import { code, el, note, table } from './dom';

const GUARD_ROWS = 300;

export function guardsTab(ctx: Context): TabView {
  const element = el('div', { class: 'tcx-guards' });
  const sections: HTMLElement[] = [];
  if (!ctx.doc.compiles.length) {
    element.appendChild(note('No compiles in this document.'));
  }
  ctx.doc.compiles.forEach(c => {
    const section = el('section', { class: 'tcx-compile-guards', attrs: { 'data-compile': c.id } },
      el('h4', null, `Compile ${c.id} · ${c.frame?.function ?? '?'} (${where(c.frame)}) `, el('span', { class: `tcx-status tcx-status-${c.status}` }, c.status)));
    if (c.error) {
      section.appendChild(el('p', { class: 'tcx-error' }, `${c.error.type ?? 'error'}: ${c.error.message ?? ''}`));
    }
    recompileRows(c).forEach((group, i) => {
      section.appendChild(el('p', { class: 'tcx-recompile-title' }, `Recompiled (#${i}) because a guard of a cached compile failed:`));
      section.appendChild(table(['cached compile', 'failed guard', 'expected', 'actual'], group.map(r => [
        code(r.cached), code(r.guard), el('span', { class: 'tcx-expected' }, r.expected), el('span', { class: 'tcx-actual' }, r.actual)
      ]), 'tcx-recompile-table'));
    });
    const types = guardTypes(c);
    section.appendChild(el('p', { class: 'tcx-muted' }, `${c.guards.length} guards${types.length ? ': ' + types.map(([t, n]) => `${t} ×${n}`).join(', ') : ''}`));
    const rows = (limit: number) => c.guards.slice(0, limit).map(g => [
      g.type, code(g.source ?? ''), code(g.expression),
      el('span', null, g.user_code ? code(g.user_code) : '', g.user_location ? ` ${where(g.user_location)}` : '')
    ]);
    const headers = ['type', 'source', 'expression', 'user code'];
    const guardTable = el('div', null, table(headers, rows(GUARD_ROWS), 'tcx-guard-table'));
    if (c.guards.length > GUARD_ROWS) {
      guardTable.appendChild(el('button', { attrs: { type: 'button' }, onclick: () => guardTable.replaceChildren(table(headers, rows(c.guards.length), 'tcx-guard-table')) }, `show all ${c.guards.length} guards`));
    }
    if (c.guards.length) {
      section.appendChild(guardTable);
    }
    sections.push(section);
    element.appendChild(section);
  });
  return {
    element,
    reveal(target) {
      if (target.tab === 'guards') {
        sections[target.compile]?.scrollIntoView?.({ block: 'start' });
      }
    }
  };
}
