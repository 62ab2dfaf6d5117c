import {
  diffRows,
  divergenceLinks,
  LeafState,
  OLD_ACCURACY_NOTE,
  referenceRows
} from '../model/accuracy';
import { num, sourceLabels, where, whereTitle } from '../model/format';
import { Accuracy, FirstDivergence, LeafDiff } from '../model/types';
import { Context, TabView } from './context';
import { append, code, el, link, note, table } from './dom';

const STATE_CLASS: Record<LeafState, string> = {
  match: 'tcx-ok',
  mismatch: 'tcx-bad',
  random: 'tcx-warning',
  other: 'tcx-muted'
};

function diffTable(leaves: LeafDiff[], first = 'output'): HTMLElement {
  return table(
    [first, 'verdict', 'value', 'max abs err', 'max rel err', 'mismatched'],
    diffRows(leaves).map(r => [
      code(r.path),
      el('span', { class: STATE_CLASS[r.state] }, r.verdict),
      r.detail,
      r.maxAbs,
      r.maxRel,
      r.mismatched
    ])
  );
}

const SEVERITY_CLASS = {
  ok: 'tcx-ok',
  warning: 'tcx-warning',
  error: 'tcx-bad'
};

/** The inputs, gradients and state after the call, compiled against eager, where measured. */
function afterCallTables(acc: Accuracy): HTMLElement[] {
  const tables: HTMLElement[] = [];
  if (acc.inputs_after_call?.length) {
    tables.push(
      el('h4', null, 'Inputs after the call (mutations)'),
      diffTable(acc.inputs_after_call)
    );
  }
  if (acc.gradients?.length) {
    tables.push(
      el(
        'h4',
        null,
        'Gradients after one training step (each side from the same saved state)'
      ),
      diffTable(acc.gradients, 'parameter')
    );
  }
  if (acc.state_after_call?.length) {
    tables.push(
      el(
        'h4',
        null,
        'State after one training step (parameters, buffers, optimizer state it changed)'
      ),
      diffTable(acc.state_after_call, 'state')
    );
  }
  return tables;
}

/** Where compiled and eager first part: the node, its kernels, random ops and user line, each linked. */
function divergenceView(ctx: Context, d: FirstDivergence): HTMLElement {
  const links = divergenceLinks(ctx.doc);
  return el(
    'div',
    { class: 'tcx-divergence' },
    el('h4', null, 'First divergence'),
    el(
      'div',
      null,
      'node: ',
      links.node ? link(d.node, () => ctx.go(links.node!)) : code(d.node),
      ` (${d.op} `,
      code(d.target),
      `) · max abs err ${num(d.max_abs_err)}`
    ),
    d.of === 'gradients'
      ? el(
          'div',
          null,
          'diverges in the backward: gradient of graph input ',
          code(d.gradient_of ?? '')
        )
      : null,
    el(
      'div',
      null,
      'kernels: ',
      ...(links.kernels.length
        ? links.kernels.flatMap((k, i) => [
            i ? ', ' : '',
            link(k.name, () => ctx.go(k.target))
          ])
        : ['none recorded'])
    ),
    d.random_ops?.length
      ? el(
          'div',
          null,
          'random ops: ',
          ...d.random_ops.flatMap((op, i) => [i ? ', ' : '', code(op)])
        )
      : null,
    d.source
      ? el(
          'div',
          null,
          'line: ',
          links.line
            ? link(
                where(d.source, sourceLabels(ctx.doc)),
                () => ctx.go(links.line!),
                whereTitle(d.source)
              )
            : where(d.source, sourceLabels(ctx.doc)),
          ' ',
          code(d.source.code ?? '')
        )
      : null
  );
}

export function accuracyTab(ctx: Context): TabView {
  const acc = ctx.doc.accuracy;
  const element = el('div', { class: 'tcx-accuracy' });
  if (!acc) {
    element.appendChild(
      note(
        'No accuracy check in this document: tcexplore.explore() compares compiled outputs with eager.'
      )
    );
    return { element };
  }
  const verdict = acc.verdict;
  const explained = [verdict?.why, verdict?.advice].filter(t => t).join(' ');
  append(
    element,
    verdict
      ? el('p', { class: SEVERITY_CLASS[verdict.severity] }, verdict.headline)
      : note(OLD_ACCURACY_NOTE),
    explained ? el('p', { class: 'tcx-accuracy-cause' }, explained) : null,
    el('h4', null, 'Outputs'),
    diffTable(acc.outputs ?? [])
  );
  element.append(...afterCallTables(acc));
  const d = acc.first_divergence;
  if (d) {
    element.append(divergenceView(ctx, d));
  } else if (acc.divergence_error) {
    element.appendChild(
      note(
        `The divergence search failed: ${acc.divergence_error.type ?? ''} ${acc.divergence_error.message ?? ''}`
      )
    );
  }
  const reference = acc.reference;
  if (reference) {
    element.append(
      el('h4', null, 'Against a float64 eager run'),
      reference.available
        ? table(
            ['output', 'eager error', 'compiled error', 'compiled vs eager'],
            referenceRows(acc)
          )
        : note(`No float64 reference: ${reference.reason ?? ''}`)
    );
  }
  const isolation = ctx.doc.isolation;
  if (isolation) {
    element.append(
      el('h4', null, 'What measuring left untouched'),
      el('p', null, 'Put back as they were: ', isolation.restored.join('; ')),
      el(
        'p',
        { class: 'tcx-muted' },
        'Not put back: ',
        isolation.not_restorable.join('; ')
      )
    );
  }
  return { element };
}
