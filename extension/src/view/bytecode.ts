import {
  breakLines,
  bytecodePicks,
  BytecodeRow,
  firstPick,
  jumpOf,
  modifiedRows,
  originalRows,
  sourceNote,
  STEP_WORDS
} from '../model/bytecode';
import { plural, sourceLabels, where, whereTitle } from '../model/format';
import { Compile, ReadingStep, ResumeJump } from '../model/types';
import { Context, TabView } from './context';
import { append, Child, code, el, link, note, select } from './dom';

function compileLink(ctx: Context, id: string): Child {
  const index = ctx.doc.compiles.findIndex(c => c.id === id);
  return index >= 0 && ctx.doc.compiles[index].bytecode
    ? link(
        id,
        () => ctx.go({ tab: 'bytecode', compile: index }),
        `the bytecode of compile ${id}`
      )
    : code(id);
}

function breakLink(ctx: Context, index: number | null): Child {
  const brk = index === null ? undefined : ctx.doc.graph_breaks[index];
  if (!brk || !brk.file || typeof brk.line !== 'number') {
    return 'a graph break';
  }
  const labels = sourceLabels(ctx.doc);
  return link(
    `the graph break at ${where(brk, labels)}`,
    () => ctx.go({ tab: 'source', file: brk.file!, line: brk.line! }),
    whereTitle(brk)
  );
}

function jumpDetail(ctx: Context, jump: ResumeJump): HTMLElement {
  return el(
    'div',
    { class: 'tcx-bc-jump' },
    '→ goes on at ',
    jump.line === null ? `offset ${jump.offset}` : `line ${jump.line}`,
    ' in ',
    code(jump.function ?? 'a resume function'),
    ', made for ',
    breakLink(ctx, jump.graph_break),
    '. ',
    jump.compiles.length
      ? el(
          'span',
          null,
          jump.shared_name
            ? "Compiles of a resume function of this name after this break (torch names the resume functions of this compile's jumps alike and does not say which jump each one is): "
            : 'Its compile: ',
          ...jump.compiles.flatMap((id, i) => [
            i ? ', ' : '',
            compileLink(ctx, id)
          ])
        )
      : el(
          'span',
          { class: 'tcx-muted' },
          'Not compiled in this run (the jump never ran).'
        )
  );
}

function stepItem(
  ctx: Context,
  compile: number,
  step: ReadingStep,
  index: number,
  highlight: (i: number) => void
): HTMLElement {
  const c = ctx.doc.compiles[compile];
  const b = c.bytecode!;
  const graphLink =
    step.kind === 'graph'
      ? el(
          'span',
          null,
          c.dynamo_graph
            ? link('open the graph', () =>
                ctx.go({ tab: 'graphs', compile, graph: 'dynamo' })
              )
            : null,
          c.dynamo_graph ? ' · ' : null,
          link(
            `guarded by ${plural(c.guards.length, 'guard')}`,
            () => ctx.go({ tab: 'guards', compile }),
            'the guards this compiled code runs under'
          )
        )
      : null;
  const jump = step.kind === 'resume' ? jumpOf(b, step) : null;
  return el(
    'li',
    {
      class: `tcx-bc-step tcx-bc-step-${step.kind}`,
      attrs: { 'data-step': String(index) },
      onclick: () => highlight(index)
    },
    el(
      'span',
      { class: `tcx-badge tcx-bc-kind-${step.kind}` },
      STEP_WORDS[step.kind]
    ),
    ' ',
    code(step.text),
    typeof step.line === 'number'
      ? el('span', { class: 'tcx-muted' }, ` line ${step.line}`)
      : null,
    graphLink ? el('span', null, ' · ', graphLink) : null,
    jump ? jumpDetail(ctx, jump) : null
  );
}

function reading(
  ctx: Context,
  compile: number,
  highlight: (i: number) => void
): HTMLElement {
  const b = ctx.doc.compiles[compile].bytecode!;
  const steps = b.reading.steps.map((s, i) => [s, i] as const);
  const helpers = steps.filter(([s]) => s.kind === 'helper');
  const list = el(
    'ol',
    { class: 'tcx-bc-reading' },
    ...steps.map(([s, i]) => {
      const item = stepItem(ctx, compile, s, i, highlight);
      if (s.kind === 'helper') {
        item.classList.add('tcx-bc-helper');
      }
      if (s.wrapper) {
        item.classList.add('tcx-bc-wrapper');
      }
      return item;
    })
  );
  const toggle = helpers.length
    ? el(
        'label',
        { class: 'tcx-muted tcx-bc-toggle' },
        el('input', { attrs: { type: 'checkbox' } }),
        ` show Dynamo's ${plural(helpers.length, 'helper call')} (bookkeeping around the graph call)`
      )
    : null;
  toggle
    ?.querySelector('input')
    ?.addEventListener('change', event =>
      list.classList.toggle(
        'tcx-bc-show-helpers',
        (event.target as HTMLInputElement).checked
      )
    );
  return el(
    'div',
    null,
    list,
    toggle,
    b.reading.complete
      ? null
      : note(
          'The reading stops where it meets an instruction it does not know (said above); the disassembly below is whole.',
          'tcx-note tcx-warning'
        )
  );
}

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

function show(ctx: Context, holder: HTMLElement, index: number): void {
  const c: Compile = ctx.doc.compiles[index];
  const b = c.bytecode!;
  const labels = sourceLabels(ctx.doc);
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
  const continued = c.resume_of;
  const broke = breakLines(ctx.doc, c);
  holder.replaceChildren();
  append(
    holder,
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
      : null,
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
