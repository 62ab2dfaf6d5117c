/**
 * The Bytecode tab's reading of the modified code: each step its instructions take (the
 * guarded graph call, side effects replayed, eager code, jumps into resume functions with
 * their compiles), Dynamo's helper calls hidden until asked for; a step marks its
 * instructions in the disassembly.
 */

import { jumpOf, STEP_WORDS } from '../model/bytecode';
import { plural, sourceLabels, where, whereTitle } from '../model/format';
import { ReadingStep, ResumeJump } from '../model/types';
import { Context } from './context';
import { Child, code, el, link, note } from './dom';

export function compileLink(ctx: Context, id: string): Child {
  const index = ctx.doc.compiles.findIndex(c => c.id === id);
  return index >= 0 && ctx.doc.compiles[index].bytecode
    ? link(
        id,
        () => ctx.go({ tab: 'bytecode', compile: index }),
        `the bytecode of compile ${id}`
      )
    : code(id);
}

export function breakLink(ctx: Context, index: number | null): Child {
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

export function reading(
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
