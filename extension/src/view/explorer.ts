/** The explorer: a checked document, its tabs, and navigation between them. */

import { absentTabs } from '../model/absent';
import { documentKey } from '../model/identity';
import { checkDocument } from '../model/schema';
import { TabId, Target } from '../model/types';
import { accuracyTab } from './accuracy';
import { bytecodeTab } from './bytecode';
import { codeTab } from './code';
import { compareTab } from './compare';
import { Context, Host, TabFactory, TabView } from './context';
import { cudaGraphsTab } from './cudagraphs';
import { el } from './dom';
import { fusionTab } from './fusion';
import { graphsTab } from './graphs';
import { guardsTab } from './guards';
import { memoryTab } from './memory';
import { DOC_ATTRIBUTE, GO_EVENT } from './links';
import { overviewTab } from './overview';
import { profileTab } from './profile';
import { runTab } from './run';
import { shapesTab } from './shapes';
import { sourceTab } from './source';
import { Tabs } from './tabs';
import { timingTab } from './timing';

const TABS: Array<[TabId, string, TabFactory]> = [
  ['overview', 'Overview', overviewTab],
  ['source', 'Source', sourceTab],
  ['graphs', 'Graphs', graphsTab],
  ['bytecode', 'Bytecode', bytecodeTab],
  ['fusion', 'Fusion', fusionTab],
  ['code', 'Code', codeTab],
  ['guards', 'Guards & recompiles', guardsTab],
  ['shapes', 'Shapes', shapesTab],
  ['cudagraphs', 'CUDA graphs', cudaGraphsTab],
  ['timing', 'Timing', timingTab],
  ['profile', 'Profile', profileTab],
  ['run', 'Run', runTab],
  ['memory', 'Memory', memoryTab],
  ['accuracy', 'Accuracy', accuracyTab],
  ['compare', 'Compare', compareTab]
];

export interface ExplorerOptions {
  /** the tab (and item) shown first: the Overview by default */
  start?: Target;
  /** what the notebook around the output offers ("Open as cell"), if anything */
  host?: Host;
}

/** The explorer of one document. */
export function createExplorer(
  data: unknown,
  { start = { tab: 'overview' }, host }: ExplorerOptions = {}
): HTMLElement {
  const checked = checkDocument(data);
  if (!checked.ok) {
    return el(
      'div',
      { class: 'tcx-explorer tcx-unreadable' },
      el('p', { class: 'tcx-error', attrs: { role: 'alert' } }, checked.message)
    );
  }
  const views = new Map<string, TabView>();
  const ctx: Context = {
    doc: checked.doc,
    host,
    go(target: Target) {
      tabs.select(target.tab);
      views.get(target.tab)?.reveal?.(target);
    }
  };
  const absent = new Set(absentTabs(checked.doc).map(a => a.tab));
  const tabs = new Tabs(
    TABS.map(([id, label, factory]) => ({
      id,
      label,
      hidden: absent.has(id),
      build: () => {
        const view = factory(ctx);
        views.set(id, view);
        return view.element;
      }
    }))
  );
  ctx.go(start);
  if (start.tab !== 'overview') {
    // scrolling needs the element in the page, which it joins after this returns
    setTimeout(() => views.get(start.tab)?.reveal?.(start), 0);
  }
  const element = el(
    'div',
    {
      class: 'tcx-explorer',
      attrs: { [DOC_ATTRIBUTE]: documentKey(checked.doc) }
    },
    tabs.element
  );
  // A diff view's link: go there and bring it into sight.
  element.addEventListener(GO_EVENT, event => {
    if (event.target !== element) {
      return; // meant for an explorer nested in this one (a Compare row)
    }
    ctx.go((event as CustomEvent<Target>).detail);
    window.requestAnimationFrame(() =>
      element.scrollIntoView({ block: 'start' })
    );
  });
  return element;
}
