import { notCompiled, nothingCompiled } from '../model/notcompiled';
import { sourceLabels, where } from '../model/format';
import { Context } from './context';
import { code, el, table } from './dom';

/** Rows shown; the rest are counted. */
const MAX_ROWS = 20;

/** The Overview's "Not compiled" block: each frame, torch's reason and what to do. */
export function notCompiledView(ctx: Context): HTMLElement | null {
  const entries = notCompiled(ctx.doc);
  if (!entries.length) {
    return null;
  }
  const labels = sourceLabels(ctx.doc);
  const none = nothingCompiled(ctx.doc);
  const rows = entries.slice(0, MAX_ROWS).map(e => [
    el('span', null, code(e.function), ' ', el('span', { class: 'tcx-muted', title: e.file }, where({ file: e.file, line: e.line }, labels))),
    e.category, e.reason, e.advice]);
  const more = entries.length - MAX_ROWS;
  return el('details', { class: 'tcx-not-compiled', attrs: none ? { open: '' } : {} },
    el('summary', null, `Not compiled: ${entries.length} frame${entries.length === 1 ? '' : 's'} ran without compiled code${none ? ' (nothing was compiled)' : ''}`),
    table(['frame', 'category', "torch's reason", 'what to do'], rows),
    more > 0 ? el('p', { class: 'tcx-muted' }, `… ${more} more frames not shown`) : null);
}
