import { Target, TcxDocument } from '../model/types';
import { KernelRequest } from '../model/workbench';

/** What the page around the explorer offers (JupyterLab: commands); every action optional. */
export interface Host {
  /** insert a cell below this output with the reproducer of a kernel */
  openAsCell?(request: KernelRequest): Promise<void>;
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
