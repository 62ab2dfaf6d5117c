import { languageOf } from './highlight';
import { kernelTimes, timeLabel } from '../model/profile';
import { ProfiledKernel } from '../model/types';
import { Context, TabView } from './context';
import { el, note, wrappable } from './dom';
import { codeBlock } from './codeblock';
import { OutputRef, outputPicker, outputRefs, refKey } from './outputs';
import { openAsCell } from './workbench';

const WRAPPER = '(wrapper)';

/** What the pane shows for a name: a kernel's code (with "Open as cell"), else the wrapper's. */
function codeOf(ctx: Context, ref: OutputRef, name: string): HTMLElement[] {
  const out = ctx.doc.compiles[ref.compile].output_codes[ref.output];
  const index = out.kernels.findIndex(k => k.name === name);
  const kernel = out.kernels[index];
  if (kernel) {
    return [
      el(
        'h4',
        null,
        wrappable(kernel.name),
        ` (${kernel.kind}) `,
        openAsCell(ctx, ref, index)
      ),
      codeBlock(kernel.source ?? '', languageOf(kernel.kind))
    ];
  }
  return [
    el('h4', null, `Wrapper: ${out.path ?? out.kind}`),
    codeBlock(out.text ?? '', 'python')
  ];
}

/** A name in the list (the wrapper or kernel `index`), with the kernel's measured time. */
function codeItem(
  name: string,
  times: Map<number, ProfiledKernel>,
  index: number,
  show: (name: string) => void
): HTMLElement {
  return el(
    'li',
    { class: 'tcx-kernel-item', attrs: { 'data-kernel': name } },
    el(
      'button',
      {
        class: 'tcx-kernel-button',
        attrs: { type: 'button' },
        onclick: () => show(name)
      },
      wrappable(name),
      times.has(index)
        ? el(
            'span',
            {
              class: 'tcx-kernel-time',
              title:
                'measured time per step and share of the step (Profile tab)'
            },
            timeLabel(times.get(index))
          )
        : null
    )
  );
}

export function codeTab(ctx: Context): TabView {
  const refs = outputRefs(ctx.doc);
  const element = el('div', { class: 'tcx-codeview' });
  if (!refs.length) {
    element.appendChild(note('No Inductor output code in this document.'));
    return { element };
  }
  const list = el('ul', { class: 'tcx-kernel-list' });
  const pane = el('div', { class: 'tcx-main tcx-code-pane' });
  let ref = refs[0];
  const show = (name: string) => {
    for (const item of list.querySelectorAll('.tcx-kernel-item')) {
      item.classList.toggle(
        'tcx-active',
        item.getAttribute('data-kernel') === name
      );
    }
    pane.replaceChildren(...codeOf(ctx, ref, name));
  };
  const open = (next: OutputRef, kernel?: string) => {
    ref = next;
    picker.value = refKey(ref);
    const out = ctx.doc.compiles[ref.compile].output_codes[ref.output];
    const names = [
      WRAPPER,
      ...out.kernels
        .filter(k => k.kind !== 'extern' && k.source)
        .map(k => k.name)
    ];
    const times = kernelTimes(ctx.doc, ref.compile, ref.output);
    list.replaceChildren(
      ...names.map(name =>
        codeItem(
          name,
          times,
          out.kernels.findIndex(k => k.name === name),
          show
        )
      )
    );
    show(kernel ?? names[1] ?? WRAPPER);
  };
  const picker = outputPicker(ctx.doc, refs, r => open(r));
  element.append(
    el('div', { class: 'tcx-toolbar' }, picker),
    el(
      'div',
      { class: 'tcx-split' },
      el('div', { class: 'tcx-kernels' }, list),
      pane
    )
  );
  open(ref);
  return {
    element,
    reveal(target) {
      if (target.tab === 'code') {
        open({ compile: target.compile, output: target.output }, target.kernel);
      }
    }
  };
}
