/** The sidebar plugin: lists every tcexplore output in the open notebooks and jumps to it. */

import { ILabShell, JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICodeCellModel } from '@jupyterlab/cells';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { LabIcon } from '@jupyterlab/ui-components';
import { Widget } from '@lumino/widgets';
import { ExplorationEntry, findExplorations, OutputLike } from './model/notebook';
import { el } from './view/dom';
import { NotebookEntries, sidebarContent } from './view/sidebar';
import workbench from './workbench';

const ICON = new LabIcon({
  name: 'tcexplore:icon',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g class="jp-icon3" fill="#616161">' +
    '<rect x="3" y="3" width="7" height="5" rx="1"/><rect x="14" y="9" width="7" height="5" rx="1"/>' +
    '<rect x="3" y="16" width="7" height="5" rx="1"/><path d="M6 8v8h1V8zM10 5h7v4h-1V6h-6zM17 14v4h-7v-1h6v-3z"/></g></svg>'
});

function outputsOf(panel: NotebookPanel): OutputLike[][] {
  const cells = panel.model?.cells;
  const result: OutputLike[][] = [];
  if (!cells) {
    return result;
  }
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.get(i);
    const outputs: OutputLike[] = [];
    if (cell.type === 'code') {
      const area = (cell as ICodeCellModel).outputs;
      for (let j = 0; j < area.length; j++) {
        outputs.push({ data: area.get(j).data as Record<string, unknown> });
      }
    }
    result.push(outputs);
  }
  return result;
}

async function jump(app: JupyterFrontEnd, panel: NotebookPanel, entry: ExplorationEntry): Promise<void> {
  app.shell.activateById(panel.id);
  const notebook = panel.content;
  notebook.activeCellIndex = entry.cell;
  await notebook.scrollToItem(entry.cell, 'start');
  const cell = notebook.widgets[entry.cell];
  const output = cell?.node.querySelectorAll('.tcx-explorer')[0] ?? cell?.node;
  output?.scrollIntoView({ block: 'start' });
  cell?.node.classList.add('tcx-flash');
  window.setTimeout(() => cell?.node.classList.remove('tcx-flash'), 1200);
}

/** Lists again each time it is shown: outputs may have changed while it was hidden. */
class Sidebar extends Widget {
  constructor(private readonly refresh: () => void) {
    super();
  }

  protected onAfterShow(): void {
    this.refresh();
  }
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'tcexplore:sidebar',
  description: 'Lists the tcexplore explorations of the open notebooks.',
  autoStart: true,
  requires: [INotebookTracker, ILabShell],
  activate: (app: JupyterFrontEnd, tracker: INotebookTracker, shell: ILabShell) => {
    const sidebar = new Sidebar(() => refresh());
    sidebar.id = 'tcexplore-sidebar';
    sidebar.addClass('tcx-sidebar');
    sidebar.title.icon = ICON;
    sidebar.title.caption = 'tcexplore: explorations in open notebooks';
    let pending = 0;
    const refresh = () => {
      window.clearTimeout(pending);
      pending = window.setTimeout(() => {
        const notebooks: NotebookEntries[] = [];
        tracker.forEach(panel => notebooks.push({ title: panel.title.label, entries: findExplorations(outputsOf(panel)), jump: entry => void jump(app, panel, entry) }));
        sidebar.node.replaceChildren(el('h3', { class: 'tcx-sidebar-title' }, 'tcexplore'), sidebarContent(notebooks));
      }, 200);
    };
    tracker.widgetAdded.connect((_, panel) => {
      void panel.context.ready.then(refresh);
      panel.context.model.contentChanged.connect(refresh);
      panel.disposed.connect(refresh);
    });
    shell.add(sidebar, 'left', { rank: 600 });
    refresh();
  }
};

export default [plugin, workbench];
