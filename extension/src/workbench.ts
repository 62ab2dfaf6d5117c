/**
 * The `tcexplore:workbench` plugin: the "Open as cell" command. Given a kernel request and
 * the output it came from, it asks the notebook's kernel for the reproducer (tcexplore
 * writes it, in Python) and inserts it as a new code cell below the output's cell.
 */

import {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import {
  INotebookTracker,
  NotebookActions,
  NotebookPanel
} from '@jupyterlab/notebook';
import { setCommands } from './commandbridge';
import {
  KernelRequest,
  OPEN_AS_CELL,
  parseReply,
  reproducerStatement
} from './model/workbench';

/** The notebook panel and cell index that hold the output marked `anchor`. */
function outputCell(
  tracker: INotebookTracker,
  anchor: string
): { panel: NotebookPanel; index: number } | null {
  const node = document.querySelector(
    `[data-tcx-anchor="${CSS.escape(anchor)}"]`
  );
  let found: { panel: NotebookPanel; index: number } | null = null;
  tracker.forEach(panel => {
    if (node && !found && panel.content.node.contains(node)) {
      found = {
        panel,
        index: panel.content.widgets.findIndex(cell => cell.node.contains(node))
      };
    }
  });
  return found;
}

async function askKernel(
  panel: NotebookPanel,
  request: KernelRequest
): Promise<string> {
  const kernel = panel.sessionContext.session?.kernel;
  if (!kernel) {
    throw new Error(
      'This notebook has no kernel: start one (tcexplore writes the reproducer in it).'
    );
  }
  const future = kernel.requestExecute({
    code: reproducerStatement(request),
    silent: false,
    store_history: false,
    stop_on_error: false
  });
  let stdout = '';
  let failure = '';
  future.onIOPub = msg => {
    const content = msg.content as {
      name?: string;
      text?: string;
      ename?: string;
      evalue?: string;
    };
    if (msg.header.msg_type === 'stream' && content.name === 'stdout') {
      stdout += content.text ?? '';
    } else if (msg.header.msg_type === 'error') {
      failure = `${content.ename}: ${content.evalue}`;
    }
  };
  const reply = await future.done;
  if (reply.content.status !== 'ok') {
    throw new Error(
      `The kernel could not write the reproducer (is tcexplore installed there?): ${failure}`
    );
  }
  return parseReply(stdout);
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'tcexplore:workbench',
  description:
    'Open a kernel of a tcexplore output as a new notebook cell (its reproducer).',
  autoStart: true,
  requires: [INotebookTracker],
  activate: (app: JupyterFrontEnd, tracker: INotebookTracker) => {
    app.commands.addCommand(OPEN_AS_CELL, {
      label: 'Open kernel as cell',
      caption:
        'Insert a cell below with the reproducer of a kernel of this tcexplore output',
      execute: async args => {
        const at = outputCell(tracker, String(args.anchor));
        if (!at || at.index < 0) {
          throw new Error('This output is not in an open notebook.');
        }
        const text = await askKernel(
          at.panel,
          args.request as unknown as KernelRequest
        );
        const notebook = at.panel.content;
        notebook.activeCellIndex = at.index;
        NotebookActions.insertBelow(notebook);
        notebook.activeCell?.model.sharedModel.setSource(text);
      }
    });
    setCommands(app.commands);
  }
};

export default plugin;
