import {
  fusionModel,
  FusionKernel,
  FusionModel,
  kernelColour
} from '../model/fusion';
import { plural } from '../model/format';
import { kernelTimes, timeLabel } from '../model/profile';
import { GraphNode, ProfiledKernel } from '../model/types';
import { Context, TabView } from './context';
import { el, note, wrappable } from './dom';
import { fileLabeller } from './graphs';
import { GraphView } from './graphview';
import { kernelPanel } from './kernelpanel';
import { nodeInfo } from './nodeinfo';
import { OutputRef, outputPicker, outputRefs, refKey } from './outputs';

interface Pane {
  model: FusionModel;
  element: HTMLElement;
  selectKernel(index: number): void;
}

/** A kernel in the list: its colour, name, kind and node count, and its measured time. */
function kernelItem(
  fk: FusionKernel,
  measured: ProfiledKernel | undefined,
  select: (index: number) => void
): HTMLElement {
  return el(
    'li',
    {
      class: 'tcx-kernel-item',
      attrs: { 'data-kernel': fk.kernel.name, 'data-index': String(fk.index) }
    },
    el(
      'button',
      {
        class: 'tcx-kernel-button',
        attrs: { type: 'button' },
        onclick: () => select(fk.index)
      },
      el('span', {
        class: 'tcx-swatch',
        attrs: { style: `background:${fk.colour}` }
      }),
      ' ',
      wrappable(fk.label),
      el(
        'span',
        { class: 'tcx-muted' },
        ` ${fk.kernel.kind} · ${fk.nodes.length}`
      ),
      measured
        ? el(
            'span',
            {
              class: 'tcx-kernel-time',
              title:
                'measured time per step and share of the step (Profile tab)'
            },
            timeLabel(measured)
          )
        : null
    )
  );
}

/** A clicked node's details: what it is and the kernels computing it, or why none does. */
function nodeDetails(
  ctx: Context,
  ref: OutputRef,
  model: FusionModel,
  node: GraphNode,
  indices: number[]
): Array<HTMLElement | string> {
  const reason = model.output.unmapped_reason;
  return [
    nodeInfo(
      ctx,
      node,
      indices.map(index => ({
        name: model.kernels[index].label,
        target: {
          tab: 'fusion',
          compile: ref.compile,
          output: ref.output,
          kernel: model.kernels[index].kernel.name,
          index
        }
      }))
    ),
    model.unmapped.has(node.name)
      ? note(
          `Not mapped to any kernel${reason ? `: ${reason}` : ''}.`,
          'tcx-warning'
        )
      : '',
    model.dead.has(node.name)
      ? note('Not computed: nothing uses its value, so Inductor drops it.')
      : ''
  ];
}

/** The kernel list with the details under it, beside the graph; why nodes are unmapped above. */
function paneElement(
  model: FusionModel,
  list: HTMLElement,
  side: HTMLElement,
  canvas: HTMLElement
): HTMLElement {
  const reason = model.output.unmapped_reason; // why, as Python stored it (findings/unmapped.py)
  // The details go under the kernel list: beside the list a reader clicks, leaving the graph its width.
  const split = el(
    'div',
    { class: 'tcx-split tcx-fusion-pane' },
    el(
      'div',
      { class: 'tcx-kernel-column' },
      el('div', { class: 'tcx-kernels' }, list),
      side
    ),
    el('div', { class: 'tcx-main' }, canvas)
  );
  return reason
    ? el(
        'div',
        null,
        note(
          `${plural(model.unmapped.size, 'post-grad node')} mapped to no kernel: ${reason}.`,
          'tcx-warning tcx-unmapped-reason'
        ),
        split
      )
    : split;
}

function pane(ctx: Context, ref: OutputRef): Pane {
  const model = fusionModel(ctx.doc.compiles[ref.compile], ref.output);
  const side = el(
    'aside',
    { class: 'tcx-side' },
    note('Click a kernel or a node.', 'tcx-muted')
  );
  const list = el('ul', { class: 'tcx-kernel-list' });
  const items = new Map<number, HTMLElement>();
  const times = kernelTimes(ctx.doc, ref.compile, ref.output);
  let view: GraphView | null = null;
  const selectKernel = (index: number) => {
    const fk = model.kernels[index];
    if (!fk) {
      return;
    }
    for (const [other, item] of items) {
      item.classList.toggle('tcx-active', other === index);
    }
    if (view) {
      view.show(
        fk.nodes
          .map(n => view!.model.byName.get(n))
          .filter((i): i is number => i !== undefined),
        'tcx-hl'
      );
    }
    side.replaceChildren(kernelPanel(ctx, ref, fk, times.get(index)));
  };
  for (const fk of model.kernels) {
    const item = kernelItem(fk, times.get(fk.index), selectKernel);
    items.set(fk.index, item);
    list.appendChild(item);
  }
  let canvas: HTMLElement;
  if (model.graph) {
    const graph = model.graph;
    view = new GraphView(graph, {
      fileLabel: fileLabeller(ctx.doc),
      colourOf: name => kernelColour(model, name),
      onNode: i => {
        const node = graph.nodes[i];
        const indices = model.kernelsOf.get(node.name) ?? [];
        if (indices.length) {
          selectKernel(indices[0]);
        } else {
          side.replaceChildren();
        }
        view!.show([i], 'tcx-selected', false);
        side.prepend(...nodeDetails(ctx, ref, model, node, indices));
      }
    });
    canvas = view.element;
  } else {
    canvas = note(
      'The post-grad graph of this output code is not in the document.'
    );
  }
  return {
    model,
    element: paneElement(model, list, side, canvas),
    selectKernel
  };
}

export function fusionTab(ctx: Context): TabView {
  const refs = outputRefs(ctx.doc);
  const element = el('div', { class: 'tcx-fusion' });
  if (!refs.length) {
    element.appendChild(note('No Inductor output code in this document.'));
    return { element };
  }
  const panes = new Map<string, Pane>();
  const holder = el('div');
  const open = (ref: OutputRef): Pane => {
    picker.value = refKey(ref);
    let p = panes.get(refKey(ref));
    if (!p) {
      p = pane(ctx, ref);
      panes.set(refKey(ref), p);
    }
    holder.replaceChildren(p.element);
    return p;
  };
  const picker = outputPicker(ctx.doc, refs, open);
  element.append(
    el(
      'div',
      { class: 'tcx-toolbar' },
      picker,
      el(
        'span',
        { class: 'tcx-muted' },
        'post-grad nodes coloured by the kernel they were fused into'
      )
    ),
    holder
  );
  open(refs[0]);
  return {
    element,
    reveal(target) {
      if (target.tab === 'fusion') {
        const p = open({ compile: target.compile, output: target.output });
        const index =
          typeof target.index === 'number'
            ? target.index
            : p.model.kernels.findIndex(k => k.kernel.name === target.kernel);
        if (index >= 0) {
          p.selectKernel(index);
        }
      }
    }
  };
}
