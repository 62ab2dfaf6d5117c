/** The MIME renderer plugins: draw tcexplore documents (explorer) and diffs (diff view). */

import { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { DIFF_MIME_TYPE } from './model/docdiff';
import { MIME_TYPE } from './model/types';
import { unpack } from './model/unpack';
import { createDiffView } from './view/docdiff';
import { el } from './view/dom';
import { createExplorer } from './view/explorer';

class ExplorerRenderer extends Widget implements IRenderMime.IRenderer {
  constructor() {
    super();
    this.addClass('tcx-output');
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    let view: HTMLElement;
    try {
      view = createExplorer(await unpack(model.data[MIME_TYPE]));
    } catch (error) {
      view = el('div', { class: 'tcx-explorer tcx-unreadable' }, el('p', { class: 'tcx-error', attrs: { role: 'alert' } }, `This tcexplore output could not be read: ${String(error)}`));
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
  rendererFactory: { safe: true, mimeTypes: [DIFF_MIME_TYPE], defaultRank: 0, createRenderer: () => new DiffRenderer() },
  rank: 0,
  dataType: 'json'
};

export default [extension, diffExtension];
