import {
  notCompiled,
  notCompiledGroups,
  OLD_GROUPS_NOTE
} from '../model/notcompiled';
import { sourceLabels, where } from '../model/format';
import { Context } from './context';
import { code, el, note, table } from './dom';

/** Reasons shown, and other frames named per reason; the rest are counted. */
const MAX_ROWS = 20;
const MAX_NAMES = 8;

/** The Overview's "Not compiled" block: one row per reason of torch's, its first frame
 * named in full and the others by name, and what to do. */
export function notCompiledView(ctx: Context): HTMLElement | null {
  const entries = notCompiled(ctx.doc);
  if (!entries.length) {
    return null;
  }
  const labels = sourceLabels(ctx.doc);
  const stored = notCompiledGroups(ctx.doc, entries);
  if (!stored) {
    return el(
      'details',
      { class: 'tcx-not-compiled' },
      el('summary', null, 'Not compiled'),
      note(OLD_GROUPS_NOTE)
    );
  }
  const groups = stored.groups;
  const rows = groups.slice(0, MAX_ROWS).map(g => {
    const [first, ...others] = g;
    const names = others.slice(0, MAX_NAMES).map(e => e.function);
    const more = others.length - names.length;
    return [
      el(
        'span',
        null,
        code(first.function),
        ' ',
        el(
          'span',
          { class: 'tcx-muted', title: first.file },
          where({ file: first.file, line: first.line }, labels)
        ),
        others.length
          ? el(
              'div',
              { class: 'tcx-muted' },
              `and ${others.length} more frame${others.length === 1 ? '' : 's'}: ${names.join(', ')}${more > 0 ? `, … ${more} more` : ''}`
            )
          : null
      ),
      first.category,
      first.reason,
      first.advice
    ];
  });
  const more = groups.length - MAX_ROWS;
  return el(
    'details',
    { class: 'tcx-not-compiled', attrs: stored.open ? { open: '' } : {} },
    el('summary', null, stored.title),
    table(['frame', 'category', "torch's reason", 'what to do'], rows),
    more > 0
      ? el('p', { class: 'tcx-muted' }, `… ${more} more reasons not shown`)
      : null
  );
}
