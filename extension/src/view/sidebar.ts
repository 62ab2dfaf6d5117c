/** The sidebar's content: explorations in the open notebooks, each a button that jumps to it. */

import { ExplorationEntry } from '../model/notebook';
import { el, note } from './dom';

export interface NotebookEntries {
  title: string;
  entries: ExplorationEntry[];
  jump(entry: ExplorationEntry): void;
}

export function sidebarContent(notebooks: NotebookEntries[]): HTMLElement {
  const withEntries = notebooks.filter(n => n.entries.length);
  if (!withEntries.length) {
    return el('div', { class: 'tcx-sidebar-list' }, note('No tcexplore outputs in the open notebooks.', 'tcx-muted'));
  }
  return el('div', { class: 'tcx-sidebar-list' }, ...withEntries.map(n =>
    el('section', null,
      el('h4', { class: 'tcx-sidebar-notebook' }, n.title),
      el('ul', null, ...n.entries.map(entry =>
        el('li', null, el('button', { class: 'tcx-sidebar-entry', attrs: { type: 'button', 'data-cell': String(entry.cell) }, onclick: () => n.jump(entry) },
          el('span', { class: 'tcx-sidebar-label' }, `[${entry.cell + 1}] ${entry.label}`),
          el('span', { class: 'tcx-sidebar-detail' }, entry.detail))))))));
}
