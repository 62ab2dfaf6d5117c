/**
 * Links from a diff into the explorers of its two documents. An explorer carries its
 * document's key (`data-tcx-doc`) and listens for GO_EVENT, whose detail is a Target; the
 * event bubbles, so the sidebar plugin can bring the notebook holding it to the front.
 */

import { Target } from '../model/types';

export const GO_EVENT = 'tcexplore-go';
export const DOC_ATTRIBUTE = 'data-tcx-doc';

/** Opens side a or b of a diff at a target; false when that side cannot be shown. */
export type OpenSide = (side: 'a' | 'b', target: Target) => boolean;

export function go(explorer: HTMLElement, target: Target): void {
  explorer.dispatchEvent(
    new CustomEvent<Target>(GO_EVENT, { detail: target, bubbles: true })
  );
}

/** The first explorer on the page showing the document with this key. */
export function explorerFor(
  key: string,
  root: ParentNode = document
): HTMLElement | null {
  for (const node of root.querySelectorAll<HTMLElement>(
    `.tcx-explorer[${DOC_ATTRIBUTE}]`
  )) {
    if (node.getAttribute(DOC_ATTRIBUTE) === key) {
      return node;
    }
  }
  return null;
}

/** Links into whichever explorers of the two documents are open on the page. */
export function pageLinks(keys: { a: string; b: string }): OpenSide {
  return (side, target) => {
    const explorer = explorerFor(keys[side]);
    if (explorer) {
      go(explorer, target);
    }
    return explorer !== null;
  };
}
