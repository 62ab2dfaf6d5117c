/**
 * The diff view: two compilations side by side (A | B). Counts and measurements first;
 * then each compile that changed: its graphs' nodes, guards, and kernels with their fused
 * nodes and source diff. Node and kernel names link into the explorers of A and B where
 * those are open (see links.ts).
 */

import { DocDiff } from '../model/difftypes';
import { checkDiff, Side, sideName } from '../model/diffview';
import { num, plural } from '../model/format';
import { compileSection, compileTitle } from './diffcompiles';
import { diffLabels, View } from './diffparts';
import { el, note, table } from './dom';
import { OpenSide, pageLinks } from './links';

function header(diff: DocDiff): HTMLElement {
  const box = (side: Side) =>
    el(
      'div',
      { class: 'tcx-diff-side' },
      el('strong', null, sideName(diff, side)),
      el(
        'div',
        { class: 'tcx-muted' },
        [diff[side].created, diff[side].torch && `torch ${diff[side].torch}`]
          .filter(Boolean)
          .join(' · ')
      )
    );
  return el(
    'div',
    { class: 'tcx-diff-head' },
    el('h3', null, 'torch.compile diff'),
    el(
      'div',
      { class: 'tcx-diff-sides' },
      box('a'),
      el('span', { class: 'tcx-arrow' }, '→'),
      box('b')
    )
  );
}

function counts(diff: DocDiff): HTMLElement {
  const s = diff.summary as Record<string, number>;
  const rows = ['compiles', 'nodes', 'kernels', 'guards'].map(thing => [
    thing,
    ...['added', 'removed', 'changed'].map(what =>
      s[`${thing}_${what}`] === undefined ? '' : String(s[`${thing}_${what}`])
    )
  ]);
  const empty = Object.values(s).every(v => !v);
  return el(
    'div',
    { class: 'tcx-diff-counts' },
    empty
      ? el(
          'p',
          { class: 'tcx-ok' },
          'No differences in what torch.compile produced.'
        )
      : null,
    table(['', 'added', 'removed', 'changed'], rows)
  );
}

function measurements(diff: DocDiff): HTMLElement | null {
  const rows: string[][] = [];
  const show = (value: unknown) =>
    typeof value === 'boolean'
      ? value
        ? 'yes'
        : 'no'
      : typeof value === 'number'
        ? num(value)
        : '—';
  const ratio = (a: unknown, b: unknown) =>
    typeof a === 'number' && typeof b === 'number' && a ? `${num(b / a)}×` : '';
  if (diff.timing) {
    const { a, b } = diff.timing;
    for (const key of [
      'compiled_ms',
      'eager_ms',
      'speedup',
      'compile_s',
      'noisy'
    ] as const) {
      rows.push([key, show(a[key]), show(b[key]), ratio(a[key], b[key])]);
    }
  }
  if (diff.accuracy) {
    const { a, b } = diff.accuracy;
    rows.push(['accurate', show(a.ok), show(b.ok), '']);
    rows.push(['max_abs_err', show(a.max_abs_err), show(b.max_abs_err), '']);
  }
  return rows.length
    ? el(
        'div',
        { class: 'tcx-diff-measurements' },
        el('h4', null, 'Timing and accuracy'),
        table(['', 'A', 'B', 'B / A'], rows)
      )
    : null;
}

/** The diff view for a "tcexplore-diff/1" object; `open` follows links (default: the page's explorers). */
export function createDiffView(data: unknown, open?: OpenSide): HTMLElement {
  const checked = checkDiff(data);
  if (!checked.ok) {
    return el(
      'div',
      { class: 'tcx-explorer tcx-unreadable' },
      el('p', { class: 'tcx-error', attrs: { role: 'alert' } }, checked.message)
    );
  }
  const diff = checked.diff;
  const opener = open ?? pageLinks({ a: diff.a.key, b: diff.b.key });
  const status = el('p', {
    class: 'tcx-diff-status tcx-note',
    attrs: { role: 'status', 'aria-live': 'polite' }
  });
  const view: View = {
    diff,
    follow(side, target) {
      if (target && opener(side, target)) {
        status.textContent = '';
      } else {
        status.textContent = `${sideName(diff, side)} is not open here: show its exploration in an open notebook to follow links into it.`;
      }
    }
  };
  const changed = diff.compiles.filter(c => c.status !== 'same');
  const same = diff.compiles.filter(c => c.status === 'same');
  return el(
    'div',
    { class: 'tcx-explorer tcx-diffview' },
    header(diff),
    counts(diff),
    measurements(diff),
    status,
    ...changed.map(entry => compileSection(view, entry)),
    same.length
      ? note(
          `${plural(same.length, 'compile')} unchanged: ${same.map(e => compileTitle(e, diffLabels(diff))).join('; ')}`,
          'tcx-muted'
        )
      : null
  );
}
