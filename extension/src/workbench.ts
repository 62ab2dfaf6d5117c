/**
 * The `tcexplore:workbench` plugin: the commands that ask the notebook's kernel. "Open as
 * cell": given a kernel request and the output it came from, it asks for the reproducer
 * (tcexplore writes it, in Python) and inserts it as a new code cell below the output's
 * cell. "Try it": it asks the kernel to try a finding's setting on the call the output came
 * from and returns the tried record; a second command says why it cannot (no kernel).
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
  NO_KERNEL,
  TRY_FIX,
  TRY_FIX_UNAVAILABLE,
  TryRequest,
  parseTried,
  tryStatement
} from './model/tryfix';
import { TriedFix } from './model/types';
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

/** Run one statement in the panel's kernel; its stdout, or an Error saying what failed. */
async function runInKernel(
  panel: NotebookPanel,
  statement: string,
  noKernel: string,
  failed: string
): Promise<string> {
  const kernel = panel.sessionContext.session?.kernel;
  if (!kernel) {
    throw new Error(noKernel);
  }
  const future = kernel.requestExecute({
    code: statement,
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
    throw new Error(`${failed}: ${failure}`);
  }
  return stdout;
}

async function askKernel(
  panel: NotebookPanel,
  request: KernelRequest
): Promise<string> {
  return parseReply(
    await runInKernel(
      panel,
      reproducerStatement(request),
      'This notebook has no kernel: start one (tcexplore writes the reproducer in it).',
      'The kernel could not write the reproducer (is tcexplore installed there?)'
    )
  );
}

async function tryInKernel(
  panel: NotebookPanel,
  request: TryRequest
): Promise<TriedFix> {
  return parseTried(
    await runInKernel(
      panel,
      tryStatement(request),
      NO_KERNEL,
      'The kernel could not try it (is tcexplore installed there?)'
    )
  );
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
    app.commands.addCommand(TRY_FIX, {
      label: 'Try this setting',
      caption:
        "Try a finding's setting on the call this tcexplore output came from, in the notebook's kernel",
      execute: async args => {
        const at = outputCell(tracker, String(args.anchor));
        if (!at) {
          throw new Error('This output is not in an open notebook.');
        }
        return tryInKernel(at.panel, args.request as unknown as TryRequest);
      }
    });
    app.commands.addCommand(TRY_FIX_UNAVAILABLE, {
      label: 'Why a setting cannot be tried here',
      execute: args => {
        // While an output renders it may not be in its notebook yet: the current one is.
        const panel =
          outputCell(tracker, String(args.anchor))?.panel ??
          tracker.currentWidget;
        return panel?.sessionContext.session?.kernel ? null : NO_KERNEL;
      }
    });
    setCommands(app.commands);
  }
};

export default plugin;
