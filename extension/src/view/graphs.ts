import { restartedLabel } from '../model/attempts';
import { baseName, sourceLabels } from '../model/format';
import { Compile, Graph, Target, TcxDocument } from '../model/types';
import { Context, TabView } from './context';
import { el, note, select } from './dom';
import { GraphView } from './graphview';
import { nodeInfo } from './nodeinfo';

interface GraphChoice {
  key: string;
  label: string;
  compile: number;
  graph: Graph;
}

function choices(compiles: Compile[]): GraphChoice[] {
  const out: GraphChoice[] = [];
  compiles.forEach((c, ci) => {
    if (c.dynamo_graph) {
      out.push({
        key: `${ci}|dynamo`,
        label: `${c.id} · Dynamo`,
        compile: ci,
        graph: c.dynamo_graph
      });
    }
    (c.restarted_attempts ?? []).forEach(a =>
      out.push({
        key: `${ci}|dynamo:${a.attempt}`,
        label: restartedLabel(c, a),
        compile: ci,
        graph: a.graph
      })
    );
    for (const kind of ['forward', 'backward', 'inference', 'joint']) {
      if (c.aot_graphs[kind]) {
        out.push({
          key: `${ci}|aot:${kind}`,
          label: `${c.id} · AOT ${kind}`,
          compile: ci,
          graph: c.aot_graphs[kind]
        });
      }
    }
    c.post_grad_graphs.forEach((g, i) =>
      out.push({
        key: `${ci}|post:${i}`,
        label: `${c.id} · post-grad #${i}`,
        compile: ci,
        graph: g
      })
    );
  });
  return out;
}

/** A user file as the document labels it (a notebook cell: "cell [4]"), else its base name. */
export function fileLabeller(doc: TcxDocument): (file: string) => string {
  const labels = sourceLabels(doc);
  return file => labels[file] ?? baseName(file);
}

/** Kernels (with their Fusion targets) that a node of a compile's graph went into. */
function kernelsOfNode(
  c: Compile,
  ci: number,
  name: string,
  nodeKernels: string[] = []
) {
  const found: Array<{ name: string; target: Target }> = [];
  c.output_codes.forEach((o, oi) => {
    o.kernels.forEach((k, index) => {
      // a name the node lists stands for its kernel only where no entry says its own nodes
      const own =
        k.post_grad_nodes?.includes(name) || k.source_nodes?.includes(name);
      const named =
        nodeKernels.includes(k.name) &&
        !o.kernels.some(
          other =>
            other.name === k.name && other.post_grad_nodes?.includes(name)
        );
      const label = k.label ?? k.name;
      if ((own || named) && !found.some(f => f.name === label)) {
        found.push({
          name: label,
          target: {
            tab: 'fusion',
            compile: ci,
            output: oi,
            kernel: k.name,
            index
          }
        });
      }
    });
  });
  return found;
}

export function graphsTab(ctx: Context): TabView {
  const all = choices(ctx.doc.compiles);
  const element = el('div', { class: 'tcx-graphs' });
  if (!all.length) {
    element.appendChild(note('No graphs in this document.'));
    return { element };
  }
  const info = el(
    'aside',
    { class: 'tcx-side' },
    note('Click a node for its details.', 'tcx-muted')
  );
  const holder = el('div', { class: 'tcx-main' });
  const views = new Map<string, GraphView>();
  let current = all[0];
  const describe = (choice: GraphChoice, index: number) => {
    const node = choice.graph.nodes[index];
    const c = ctx.doc.compiles[choice.compile];
    info.replaceChildren(
      nodeInfo(
        ctx,
        node,
        kernelsOfNode(c, choice.compile, node.name, node.kernels)
      )
    );
  };
  const open = (key: string): GraphView => {
    current = all.find(c => c.key === key) ?? all[0];
    picker.value = current.key;
    let view = views.get(current.key);
    if (!view) {
      const choice = current;
      view = new GraphView(choice.graph, {
        fileLabel: fileLabeller(ctx.doc),
        onNode: i => {
          view!.show([i], 'tcx-selected', false);
          describe(choice, i);
        }
      });
      views.set(current.key, view);
    }
    holder.replaceChildren(view.element);
    return view;
  };
  const picker = select(
    all.map(c => [c.key, `${c.label} (${c.graph.nodes.length} nodes)`]),
    current.key,
    key => open(key),
    'graph'
  );
  element.append(
    el('div', { class: 'tcx-toolbar' }, picker),
    el('div', { class: 'tcx-split' }, holder, info)
  );
  open(current.key);
  return {
    element,
    reveal(target) {
      if (target.tab !== 'graphs') {
        return;
      }
      const view = open(`${target.compile}|${target.graph}`);
      if (target.node) {
        const index = view.model.byName.get(target.node);
        if (index !== undefined) {
          view.show([index], 'tcx-selected');
          describe(current, index);
        }
      }
    }
  };
}
