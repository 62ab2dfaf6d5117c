/**
 * The sidebar's content: explorations in the open notebooks, each a button that jumps to
 * it and a checkbox to pick it; two picked ones can be diffed.
 */

import { cellPrompt, ExplorationEntry } from '../model/notebook';
import { el, note } from './dom';

export interface NotebookEntries {
  title: string;
  entries: ExplorationEntry[];
  jump(entry: ExplorationEntry): void;
  /** whether the entry is picked for a diff, and picking it (with `diff` below) */
  picked?(entry: ExplorationEntry): boolean;
  pick?(entry: ExplorationEntry, on: boolean): void;
}

/** The diff of the two picked explorations: offered once exactly two are picked. */
export interface DiffAction {
  picked: number;
  run(): void;
}

/** The box picking an entry for a diff, where diffs are offered. */
function pickBox(
  n: NotebookEntries,
  entry: ExplorationEntry,
  diff?: DiffAction
): HTMLInputElement | null {
  if (!diff || !n.pick) {
    return null;
  }
  const box = el('input', {
    class: 'tcx-pick',
    attrs: {
      type: 'checkbox',
      'aria-label': `pick ${cellPrompt(entry)} ${entry.label} for a diff`
    }
  });
  box.checked = n.picked?.(entry) ?? false;
  box.addEventListener('change', () => n.pick!(entry, box.checked));
  return box;
}

/** The button diffing the two picked explorations, disabled until two are. */
function diffBar(diff: DiffAction): HTMLElement {
  return el(
    'div',
    { class: 'tcx-sidebar-diff' },
    el(
      'button',
      {
        class: 'tcx-sidebar-diff-button',
        attrs: {
          type: 'button',
          ...(diff.picked === 2 ? {} : { disabled: '' })
        },
        onclick: () => diff.run()
      },
      'Diff the two picked'
    ),
    el(
      'span',
      { class: 'tcx-sidebar-detail' },
      diff.picked === 2 ? '' : 'pick two explorations'
    )
  );
}

/** A notebook's explorations, each a button that jumps to it. */
function notebookSection(n: NotebookEntries, diff?: DiffAction): HTMLElement {
  return el(
    'section',
    null,
    el('h4', { class: 'tcx-sidebar-notebook' }, n.title),
    el(
      'ul',
      null,
      ...n.entries.map(entry =>
        el(
          'li',
          { class: 'tcx-sidebar-item' },
          pickBox(n, entry, diff),
          el(
            'button',
            {
              class: 'tcx-sidebar-entry',
              attrs: { type: 'button', 'data-cell': String(entry.cell) },
              onclick: () => n.jump(entry)
            },
            el(
              'span',
              { class: 'tcx-sidebar-label' },
              `${cellPrompt(entry)} ${entry.label}`
            ),
            el('span', { class: 'tcx-sidebar-detail' }, entry.detail)
          )
        )
      )
    )
  );
}

export function sidebarContent(
  notebooks: NotebookEntries[],
  diff?: DiffAction
): HTMLElement {
  const withEntries = notebooks.filter(n => n.entries.length);
  if (!withEntries.length) {
    return el(
      'div',
      { class: 'tcx-sidebar-list' },
      note('No tcexplore outputs in the open notebooks.', 'tcx-muted')
    );
  }
  return el(
    'div',
    { class: 'tcx-sidebar-list' },
    diff ? diffBar(diff) : null,
    ...withEntries.map(n => notebookSection(n, diff))
  );
}
