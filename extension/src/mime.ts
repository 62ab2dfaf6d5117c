/** The MIME renderer plugins: draw tcexplore documents (explorer, ranks, comparison grid) and diffs (diff view). */

import { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { commands } from './commandbridge';
import { isComparisonDocument } from './model/compare';
import { DIFF_MIME_TYPE } from './model/difftypes';
import { isRanksDocument } from './model/ranks';
import { MIME_TYPE } from './model/types';
import { PackedTooLarge, unpack } from './model/unpack';
import { TriedFix } from './model/types';
import { TRY_FIX, TRY_FIX_UNAVAILABLE } from './model/tryfix';
import { OPEN_AS_CELL } from './model/workbench';
import { createComparisonView } from './view/compare';
import { Host } from './view/context';
import { createDiffView } from './view/docdiff';
import { el } from './view/dom';
import { createExplorer } from './view/explorer';
import { createRanksView } from './view/ranks';

let rendered = 0;

class ExplorerRenderer extends Widget implements IRenderMime.IRenderer {
  constructor() {
    super();
    this.addClass('tcx-output');
    this.node.dataset.tcxAnchor = `tcx-${++rendered}`; // finds this output's notebook cell
  }

  /** The app's commands, when the tcexplore:workbench plugin runs (JupyterLab). */
  private host(): Host {
    const registry = commands();
    if (!registry) {
      return {};
    }
    const anchor = this.node.dataset.tcxAnchor as string;
    type Args = Parameters<typeof registry.execute>[1];
    return {
      openAsCell: async request => {
        await registry.execute(OPEN_AS_CELL, {
          anchor,
          request
        } as unknown as Args);
      },
      tryFix: async request =>
        (await registry.execute(TRY_FIX, {
          anchor,
          request
        } as unknown as Args)) as TriedFix,
      tryFixUnavailable: async () =>
        (await registry.execute(TRY_FIX_UNAVAILABLE, {
          anchor
        } as unknown as Args)) as string | null
    };
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    let view: HTMLElement;
    try {
      const data = model.data[MIME_TYPE];
      const host = this.host();
      view = isRanksDocument(data)
        ? createRanksView(data, host)
        : isComparisonDocument(data)
          ? createComparisonView(data, host)
          : createExplorer(await unpack(data), { host });
    } catch (error) {
      view = el(
        'div',
        { class: 'tcx-explorer tcx-unreadable' },
        el(
          'p',
          { class: 'tcx-error', attrs: { role: 'alert' } },
          error instanceof PackedTooLarge
            ? error.message
            : `This tcexplore output could not be read: ${String(error)}`
        )
      );
    }
    this.node.replaceChildren(view);
  }
}

const rendererFactory: IRenderMime.IRendererFactory = {
  safe: true, // builds DOM from text only and runs nothing: renders in untrusted notebooks too
  mimeTypes: [MIME_TYPE],
  defaultRank: 0, // ahead of the text/html fallback (rank 50)
  createRenderer: () => new ExplorerRenderer()
};

const extension: IRenderMime.IExtension = {
  id: 'tcexplore:renderer',
  rendererFactory,
  rank: 0,
  dataType: 'json'
};

class DiffRenderer extends Widget implements IRenderMime.IRenderer {
  constructor() {
    super();
    this.addClass('tcx-output');
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    this.node.replaceChildren(createDiffView(model.data[DIFF_MIME_TYPE]));
  }
}

const diffExtension: IRenderMime.IExtension = {
  id: 'tcexplore:diff-renderer',
  rendererFactory: {
    safe: true,
    mimeTypes: [DIFF_MIME_TYPE],
    defaultRank: 0,
    createRenderer: () => new DiffRenderer()
  },
  rank: 0,
  dataType: 'json'
};

export default [extension, diffExtension];
