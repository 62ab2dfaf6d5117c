/**
 * What every section of the diff view draws with: the status marks and chips, both sides'
 * cell labels, and a name linked into side A's or B's explorer.
 */

import { DocDiff } from '../model/difftypes';
import { Side, sideName } from '../model/diffview';
import { Target } from '../model/types';
import { code, el, link } from './dom';

export const MARK: Record<string, string> = {
  added: '+',
  removed: '−',
  changed: '~',
  same: '='
};

/** Both sides' cell labels: a cell's line shows as "cell [2], line 13", other files by base name. */
export function diffLabels(diff: DocDiff): Record<string, string> {
  return { ...(diff.a.source_labels ?? {}), ...(diff.b.source_labels ?? {}) };
}

/** The diff view as its sections see it: the diff, and following a link into side A or B. */
export interface View {
  diff: DocDiff;
  follow(side: Side, target: Target | null): void;
}

export function chip(status: string): HTMLElement {
  return el(
    'span',
    { class: `tcx-chip tcx-diff-${status}` },
    `${MARK[status] ?? ''} ${status}`
  );
}

export function sideLink(
  view: View,
  side: Side,
  text: string | null,
  target: Target | null
): HTMLElement {
  const label = text ?? '?';
  return target
    ? link(
        label,
        () => view.follow(side, target),
        `show in ${sideName(view.diff, side)}`
      )
    : code(label);
}
