import {
  breakLines,
  bytecodePicks,
  BytecodeRow,
  firstPick,
  modifiedRows,
  originalRows,
  sourceNote
} from '../model/bytecode';
import { sourceLabels, where, whereTitle } from '../model/format';
import { Compile } from '../model/types';
import { breakLink, compileLink, reading } from './bytecodereading';
import { Context, TabView } from './context';
import { append, el, note, select } from './dom';

function side(
  title: string,
  rows: BytecodeRow[],
  className: string
): HTMLElement {
  const body = el(
    'tbody',
    null,
    ...rows.map(r =>
      el(
        'tr',
        {
          class: `tcx-bc-row${r.mark ? ` tcx-bc-mark-${r.mark}` : ''}${r.startsLine ? ' tcx-bc-line-start' : ''}`,
          attrs: {
            'data-index': String(r.index),
            ...(r.step === null ? {} : { 'data-step': String(r.step) })
          }
        },
        el(
          'td',
          { class: 'tcx-bc-lineno' },
          r.startsLine && r.line !== null ? String(r.line) : ''
        ),
        el(
          'td',
          { class: 'tcx-bc-offset' },
          r.label
            ? `${r.label.startsWith('L') ? `${r.label}: ` : '>> '}${r.offset}`
            : r.offset
        ),
        el('td', { class: 'tcx-bc-op' }, r.opname),
        el('td', { class: 'tcx-bc-arg', title: r.argrepr }, r.argrepr)
      )
    )
  );
  return el(
    'div',
    { class: `tcx-bc-side ${className}` },
    el('h4', null, title),
    el(
      'table',
      { class: 'tcx-bc-table' },
      el(
        'thead',
        null,
        el(
          'tr',
          null,
          el('th', null, 'line'),
          el('th', null, 'offset'),
          el('th', null, 'instruction'),
          el('th', null, 'argument')
        )
      ),
      body
    )
  );
}

function legend(): HTMLElement {
  const item = (kind: string, text: string) =>
    el('span', { class: `tcx-bc-legend-item tcx-bc-mark-${kind}` }, text);
  return el(
    'p',
    { class: 'tcx-bc-legend tcx-muted' },
    'Marks: ',
    item('graph', 'guarded call into the compiled graph'),
    ' ',
    item('side_effect', 'replayed side effect'),
    ' ',
    item('eager', 'run eagerly'),
    ' ',
    item('resume', 'jump into a resume function'),
    ' ',
    item('break', 'the line that broke'),
    ' ',
    item('resume-point', 'where a resume function goes on'),
    ' ',
    item('wrapper', "a %%tcompile cell's wrapper, not your code")
  );
}

/** The compile's frame and the lines it broke at; for a resume function, the break it continues after. */
function frameHead(ctx: Context, c: Compile): Array<HTMLElement | null> {
  const labels = sourceLabels(ctx.doc);
  const continued = c.resume_of;
  const broke = breakLines(ctx.doc, c);
  return [
    el(
      'p',
      { class: 'tcx-bc-frame' },
      el('strong', null, c.frame?.function ?? '?'),
      ' ',
      el('span', { title: whereTitle(c.frame) }, where(c.frame, labels)),
      broke.length
        ? el(
            'span',
            { class: 'tcx-muted' },
            ` · broke at line ${broke.join(', ')}`
          )
        : null
    ),
    continued
      ? el(
          'p',
          { class: 'tcx-bc-resume-of' },
          'A resume function: it continues after ',
          breakLink(ctx, continued.graph_break),
          continued.compile_id
            ? el(
                'span',
                null,
                ' (compile ',
                compileLink(ctx, continued.compile_id),
                ')'
              )
            : null,
          '.'
        )
      : null
  ];
}

function show(ctx: Context, holder: HTMLElement, index: number): void {
  const c: Compile = ctx.doc.compiles[index];
  const b = c.bytecode!;
  const modified = side(
    "Modified bytecode (what runs, guarded by this compile's guards)",
    modifiedRows(b),
    'tcx-bc-modified'
  );
  const highlight = (step: number) => {
    holder
      .querySelectorAll('.tcx-bc-active')
      .forEach(n => n.classList.remove('tcx-bc-active'));
    const rows = [
      ...modified.querySelectorAll(`tr[data-step="${step}"]`),
      ...holder.querySelectorAll(`li[data-step="${step}"]`)
    ];
    rows.forEach(n => n.classList.add('tcx-bc-active'));
    (rows[0] as HTMLElement | undefined)?.scrollIntoView?.({
      block: 'nearest'
    });
  };
  holder.replaceChildren();
  append(
    holder,
    ...frameHead(ctx, c),
    el('h4', null, 'What the modified code does, read from its instructions'),
    reading(ctx, index, highlight),
    legend(),
    el(
      'div',
      { class: 'tcx-bc-sides' },
      side('Original bytecode', originalRows(ctx.doc, c), 'tcx-bc-original'),
      modified
    ),
    el(
      'p',
      { class: 'tcx-muted' },
      sourceNote(b),
      b.side_effects?.length
        ? ` torch says this code replays side effects on ${b.side_effects.join(', ')}.`
        : '',
      b.original.truncated || b.modified.truncated
        ? ' The disassembly text is not kept in this output (its instructions are).'
        : ''
    )
  );
  modified
    .querySelectorAll('tr[data-step]')
    .forEach(tr =>
      tr.addEventListener('click', () =>
        highlight(Number((tr as HTMLElement).dataset.step))
      )
    );
}

export function bytecodeTab(ctx: Context): TabView {
  const picks = bytecodePicks(ctx.doc);
  const first = firstPick(ctx.doc);
  if (first === null) {
    return {
      element: el(
        'div',
        { class: 'tcx-bytecode' },
        note(
          "No bytecode in this document: a live capture records every frame Dynamo transforms; a TORCH_TRACE log holds the resume functions' only."
        )
      )
    };
  }
  const holder = el('div', { class: 'tcx-bc-body' });
  const picker = select(
    picks.map(p => [String(p.index), p.label]),
    String(first),
    v => show(ctx, holder, Number(v)),
    'compile'
  );
  show(ctx, holder, first);
  return {
    element: el(
      'div',
      { class: 'tcx-bytecode' },
      el('label', { class: 'tcx-muted' }, 'compile ', picker),
      holder
    ),
    reveal(target) {
      if (
        target.tab === 'bytecode' &&
        ctx.doc.compiles[target.compile]?.bytecode
      ) {
        picker.value = String(target.compile);
        show(ctx, holder, target.compile);
      }
    }
  };
}
