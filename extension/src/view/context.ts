import { Target, TcxDocument } from '../model/types';

/** What every tab view gets: the document and a way to send the reader elsewhere. */
export interface Context {
  doc: TcxDocument;
  go(target: Target): void;
}

export interface TabView {
  element: HTMLElement;
  /** show the thing a target names (the tab is already selected) */
  reveal?(target: Target): void;
}

export type TabFactory = (ctx: Context) => TabView;
