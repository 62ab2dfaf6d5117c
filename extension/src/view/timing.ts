import { plural } from '../model/format';
import { compileSeconds, phaseBoxes, runtimeBars, timingSummary } from '../model/timing';
import { barChart, icicle } from './charts';
import { Context, TabView } from './context';
import { el, note, select, table } from './dom';

export function timingTab(ctx: Context): TabView {
  const { doc } = ctx;
  const element = el('div', { class: 'tcx-timing' }, el('h3', null, 'Eager vs compiled, per call'));
  if (doc.timing) {
    element.append(barChart(runtimeBars(doc)), table(['measure', 'value'], timingSummary(doc)));
  } else {
    element.appendChild(note('No runtime measurement in this document: tcexplore.explore() measures eager against compiled.'));
  }
  element.appendChild(el('h3', null, 'Compile-time phases'));
  const timed = doc.compiles.map((c, i) => ({ c, i })).filter(({ c }) => c.phases.length);
  if (!timed.length) {
    element.appendChild(note('No compile-time phases in this document.'));
    return { element };
  }
  const holder = el('div');
  const show = (index: number) => {
    const c = doc.compiles[index];
    holder.replaceChildren(el('p', { class: 'tcx-muted' }, `${c.id}: ${compileSeconds(c.phases).toFixed(2)} s in ${plural(c.phases.length, 'top-level phase')}; hover a box for its name and time`), icicle(phaseBoxes(c.phases)));
  };
  element.append(select(timed.map(({ c, i }) => [String(i), `${c.id} · ${c.frame?.function ?? '?'} (${compileSeconds(c.phases).toFixed(2)} s)`]), String(timed[0].i), v => show(Number(v)), 'compile'), holder);
  show(timed[0].i);
  return { element };
}
