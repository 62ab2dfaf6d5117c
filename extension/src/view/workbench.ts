/** The "Open as cell" action of a kernel (Code and Fusion tabs), where the host offers it. */

import { kernelRequest } from '../model/workbench';
import { Context } from './context';
import { el } from './dom';
import { OutputRef } from './outputs';

export function openAsCell(
  ctx: Context,
  ref: OutputRef,
  kernel: number
): HTMLElement | null {
  const host = ctx.host?.openAsCell;
  if (!host) {
    return null;
  }
  const status = el('span', {
    class: 'tcx-muted tcx-open-status',
    attrs: { role: 'status' }
  });
  const button = el(
    'button',
    {
      class: 'tcx-open-cell',
      title:
        'Insert a cell below this output with a program that runs this kernel on its own, ' +
        "compares an editable copy with it and times both (written by tcexplore in the notebook's kernel)",
      attrs: { type: 'button', 'data-kernel-index': String(kernel) },
      onclick: event => {
        event.stopPropagation();
        button.disabled = true;
        status.textContent = ' writing the reproducer…';
        host(kernelRequest(ctx.doc, ref.compile, ref.output, kernel))
          .then(
            () => {
              status.textContent = ' inserted below';
            },
            (error: unknown) => {
              status.textContent = ` ${error instanceof Error ? error.message : String(error)}`;
              status.className = 'tcx-error tcx-open-status';
            }
          )
          .finally(() => {
            button.disabled = false;
          });
      }
    },
    'Open as cell'
  );
  return el('span', { class: 'tcx-open' }, button, status);
}
