import { Mark, sourceFiles } from '../model/source';
import { Target } from '../model/types';
import { Context, TabView } from './context';
import { el, note } from './dom';

const SHOWN_MARKS = 6;

function chips(ctx: Context, marks: Mark[]): HTMLElement {
  const box = el('span', { class: 'tcx-marks' });
  const nodes = marks.filter(m => m.kind === 'node');
  const others = marks.filter(m => m.kind !== 'node');
  const chip = (kind: string, text: string, title: string, target?: Target) =>
    el('button', { class: `tcx-chip tcx-mark-${kind}`, title, attrs: { type: 'button' }, onclick: () => target && ctx.go(target) }, text);
  for (const m of others.slice(0, SHOWN_MARKS)) {
    box.appendChild(chip(m.kind, m.kind === 'kernel' ? m.label : m.kind, m.label, m.target));
  }
  if (others.length > SHOWN_MARKS) {
    box.appendChild(el('span', { class: 'tcx-muted' }, ` +${others.length - SHOWN_MARKS} more`));
  }
  if (nodes.length) {
    box.appendChild(chip('node', nodes.length === 1 ? nodes[0].label : `${nodes.length} graph nodes`, nodes.map(n => n.label).slice(0, 30).join(', '), nodes[0].target));
  }
  return box;
}

export function sourceTab(ctx: Context): TabView {
  const files = sourceFiles(ctx.doc);
  const rows = new Map<string, HTMLElement>();
  const element = el('div', { class: 'tcx-source' });
  if (!files.length) {
    element.appendChild(note('The document references no lines of user code.'));
  }
  for (const f of files) {
    const body = el('div', { class: 'tcx-source-lines' });
    let previous: number | null = null;
    for (const line of f.lines) {
      if (previous !== null && line.line > previous + 1) {
        body.appendChild(el('div', { class: 'tcx-gap', attrs: { 'aria-hidden': 'true' } }, '⋯'));
      }
      previous = line.line;
      const kinds = new Set(line.marks.map(m => m.kind));
      const row = el('div', { class: `tcx-line${['break', 'recompile', 'divergence'].some(k => kinds.has(k as Mark['kind'])) ? ' tcx-line-flagged' : ''}`, attrs: { 'data-line': String(line.line) } },
        el('span', { class: 'tcx-lineno' }, String(line.line)),
        el('code', { class: 'tcx-line-code' }, line.code),
        chips(ctx, line.marks));
      rows.set(`${f.file}:${line.line}`, row);
      body.appendChild(row);
    }
    element.appendChild(el('section', { class: 'tcx-source-file' }, el('h4', { class: 'tcx-file' }, f.file), body));
  }
  return {
    element,
    reveal(target) {
      if (target.tab !== 'source') {
        return;
      }
      const row = rows.get(`${target.file}:${target.line}`);
      for (const r of element.querySelectorAll('.tcx-focus')) {
        r.classList.remove('tcx-focus');
      }
      if (row) {
        row.classList.add('tcx-focus');
        row.scrollIntoView?.({ block: 'center' });
      }
    }
  };
}
