import { diffRows, divergenceLinks } from '../model/accuracy';
import { num, where } from '../model/format';
import { LeafDiff } from '../model/types';
import { Context, TabView } from './context';
import { code, el, link, note, table } from './dom';

function diffTable(leaves: LeafDiff[]): HTMLElement {
  return table(['output', 'verdict', 'value', 'max abs err', 'max rel err', 'mismatched'], diffRows(leaves).map(r => [
    code(r.path), el('span', { class: r.ok ? 'tcx-ok' : 'tcx-bad' }, r.verdict), r.detail, r.maxAbs, r.maxRel, r.mismatched
  ]));
}

export function accuracyTab(ctx: Context): TabView {
  const acc = ctx.doc.accuracy;
  const element = el('div', { class: 'tcx-accuracy' });
  if (!acc) {
    element.appendChild(note('No accuracy check in this document: tcexplore.explore() compares compiled outputs with eager.'));
    return { element };
  }
  element.append(
    el('p', { class: acc.ok ? 'tcx-ok' : 'tcx-bad' }, acc.ok ? 'Compiled outputs match eager within tolerance.' : 'Compiled outputs differ from eager.'),
    el('h4', null, 'Outputs'), diffTable(acc.outputs ?? []));
  if (acc.inputs_after_call?.length) {
    element.append(el('h4', null, 'Inputs after the call (mutations)'), diffTable(acc.inputs_after_call));
  }
  const d = acc.first_divergence;
  if (d) {
    const links = divergenceLinks(ctx.doc);
    element.append(el('div', { class: 'tcx-divergence' },
      el('h4', null, 'First divergence'),
      el('div', null, 'node: ', links.node ? link(d.node, () => ctx.go(links.node!)) : code(d.node), ` (${d.op} `, code(d.target), `) · max abs err ${num(d.max_abs_err)}`),
      el('div', null, 'kernels: ', ...(links.kernels.length ? links.kernels.flatMap((k, i) => [i ? ', ' : '', link(k.name, () => ctx.go(k.target))]) : ['none recorded'])),
      d.source ? el('div', null, 'line: ', links.line ? link(where(d.source), () => ctx.go(links.line!)) : where(d.source), ' ', code(d.source.code ?? '')) : null));
  } else if (!acc.ok) {
    element.appendChild(note(acc.divergence_error ? `The divergence search failed: ${acc.divergence_error.type ?? ''} ${acc.divergence_error.message ?? ''}` : 'No diverging graph node was found.'));
  }
  return { element };
}
