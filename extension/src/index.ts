/**
 * The sidebar plugin: lists every tcexplore output in the open notebooks, jumps to it, and
 * diffs two picked ones; it also brings a notebook forward when a diff links into it.
 */

import {
  ILabShell,
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICodeCellModel } from '@jupyterlab/cells';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { LabIcon } from '@jupyterlab/ui-components';
import { Widget } from '@lumino/widgets';
import { computeDiff } from './model/docdiff';
import {
  CellLike,
  cellPrompt,
  ExplorationEntry,
  findExplorations,
  OutputLike
} from './model/notebook';
import { checkDocument } from './model/schema';
import { MIME_TYPE } from './model/types';
import { unpack } from './model/unpack';
import { createDiffView } from './view/docdiff';
import { el, note } from './view/dom';
import { GO_EVENT } from './view/links';
import { NotebookEntries, sidebarContent } from './view/sidebar';
import workbench from './workbench';

const ICON = new LabIcon({
  name: 'tcexplore:icon',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g class="jp-icon3" fill="#616161">' +
    '<rect x="3" y="3" width="7" height="5" rx="1"/><rect x="14" y="9" width="7" height="5" rx="1"/>' +
    '<rect x="3" y="16" width="7" height="5" rx="1"/><path d="M6 8v8h1V8zM10 5h7v4h-1V6h-6zM17 14v4h-7v-1h6v-3z"/></g></svg>'
});

function cellsOf(panel: NotebookPanel): CellLike[] {
  const cells = panel.model?.cells;
  const result: CellLike[] = [];
  if (!cells) {
    return result;
  }
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.get(i);
    const outputs: OutputLike[] = [];
    let executionCount: number | null = null;
    if (cell.type === 'code') {
      const code = cell as ICodeCellModel;
      executionCount = code.executionCount ?? null;
      for (let j = 0; j < code.outputs.length; j++) {
        outputs.push({
          data: code.outputs.get(j).data as Record<string, unknown>
        });
      }
    }
    result.push({ executionCount, outputs });
  }
  return result;
}

async function jump(
  app: JupyterFrontEnd,
  panel: NotebookPanel,
  entry: ExplorationEntry
): Promise<void> {
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

interface Picked {
  panel: NotebookPanel;
  entry: ExplorationEntry;
}

let diffs = 0;

/** The diff of two picked explorations, computed here from their documents, in a main-area tab. */
async function openDiff(
  app: JupyterFrontEnd,
  first: Picked,
  second: Picked
): Promise<void> {
  const label = (p: Picked) =>
    `${p.panel.title.label} ${cellPrompt(p.entry)} ${p.entry.label}`;
  const documentOf = async (p: Picked) => {
    const cell = p.panel.model?.cells.get(p.entry.cell) as
      ICodeCellModel | undefined;
    return checkDocument(
      await unpack(cell?.outputs.get(p.entry.output)?.data[MIME_TYPE])
    );
  };
  const [a, b] = await Promise.all([documentOf(first), documentOf(second)]);
  const content =
    a.ok && b.ok
      ? createDiffView(computeDiff(a.doc, b.doc, label(first), label(second)))
      : note(
          `These cannot be diffed: ${a.ok ? '' : a.message} ${b.ok ? '' : b.message}`,
          'tcx-error'
        );
  const widget = new Widget({
    node: el('div', { class: 'tcx-diff-panel' }, content)
  });
  widget.id = `tcexplore-diff-${++diffs}`;
  widget.title.label = 'tcexplore diff';
  widget.title.caption = `${label(first)} → ${label(second)}`;
  widget.title.closable = true;
  app.shell.add(widget, 'main', { mode: 'split-right' });
  app.shell.activateById(widget.id);
}

/** An exploration's key among the picks: its notebook, cell and output. */
function pickKey(panel: NotebookPanel, entry: ExplorationEntry): string {
  return `${panel.id}|${entry.cell}|${entry.output}`;
}

/** A notebook's explorations as the sidebar lists them: each jumps to its output, and is picked for a diff in `picks`. */
function notebookEntries(
  app: JupyterFrontEnd,
  panel: NotebookPanel,
  entries: ExplorationEntry[],
  picks: Map<string, Picked>,
  refresh: () => void
): NotebookEntries {
  return {
    title: panel.title.label,
    entries,
    jump: entry => void jump(app, panel, entry),
    picked: entry => picks.has(pickKey(panel, entry)),
    pick: (entry, on) => {
      if (on) {
        picks.set(pickKey(panel, entry), { panel, entry });
      } else {
        picks.delete(pickKey(panel, entry));
      }
      refresh();
    }
  };
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
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    shell: ILabShell
  ) => {
    const sidebar = new Sidebar(() => refresh());
    sidebar.id = 'tcexplore-sidebar';
    sidebar.addClass('tcx-sidebar');
    sidebar.title.icon = ICON;
    sidebar.title.caption = 'tcexplore: explorations in open notebooks';
    let pending = 0;
    let generation = 0;
    const picks = new Map<string, Picked>();
    // Listed only while shown (and again on showing): labels may inflate big documents, work
    // that should not compete with a notebook being opened.
    const refresh = () => {
      window.clearTimeout(pending);
      if (sidebar.isVisible) {
        pending = window.setTimeout(() => void list(++generation), 200);
      }
    };
    const list = async (mine: number) => {
      const panels: NotebookPanel[] = [];
      tracker.forEach(panel => void panels.push(panel));
      const found = await Promise.all(
        panels.map(panel => findExplorations(cellsOf(panel)))
      );
      if (mine !== generation) {
        return; // a newer listing is on its way
      }
      const notebooks: NotebookEntries[] = [];
      const seen = new Set<string>();
      panels.forEach((panel, p) => {
        found[p].forEach(entry => seen.add(pickKey(panel, entry)));
        notebooks.push(notebookEntries(app, panel, found[p], picks, refresh));
      });
      [...picks.keys()].filter(k => !seen.has(k)).forEach(k => picks.delete(k));
      const diff = {
        picked: picks.size,
        run: () => {
          const [first, second] = [...picks.values()];
          void openDiff(app, first, second);
        }
      };
      sidebar.node.replaceChildren(
        el('h3', { class: 'tcx-sidebar-title' }, 'tcexplore'),
        sidebarContent(notebooks, diff)
      );
    };
    // A diff's link into an explorer: bring the notebook holding it to the front.
    document.addEventListener(GO_EVENT, event => {
      const panel = tracker.find(p => p.node.contains(event.target as Node));
      if (panel) {
        app.shell.activateById(panel.id);
      }
    });
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
