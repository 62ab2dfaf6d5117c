import { Target, TcxDocument } from '../model/types';
import { TriedFix } from '../model/types';
import { TryRequest } from '../model/tryfix';
import { KernelRequest } from '../model/workbench';

/** What the page around the explorer offers (JupyterLab: commands); every action optional. */
export interface Host {
  /** insert a cell below this output with the reproducer of a kernel */
  openAsCell?(request: KernelRequest): Promise<void>;
  /** try a finding's setting on the call this output came from, in the notebook's kernel */
  tryFix?(request: TryRequest): Promise<TriedFix>;
  /** why tryFix cannot run now (no kernel), or null */
  tryFixUnavailable?(): Promise<string | null>;
}

/** What every tab view gets: the document, a way to send the reader elsewhere, the host. */
export interface Context {
  doc: TcxDocument;
  go(target: Target): void;
  host?: Host;
}

export interface TabView {
  element: HTMLElement;
  /** show the thing a target names (the tab is already selected) */
  reveal?(target: Target): void;
}

export type TabFactory = (ctx: Context) => TabView;
