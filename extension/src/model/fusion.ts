/** The Fusion tab: which kernel each post-grad node was fused into, both ways. */

import { Compile, Graph, Kernel, OutputCode } from './types';

export const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
  '#86bcb6',
  '#d37295',
  '#a0cbe8',
  '#ffbe7d',
  '#8cd17d',
  '#f1ce63'
];
export const EXTERN_COLOUR = '#8a8a8a';

export interface FusionKernel {
  kernel: Kernel;
  /** its place in the output code's kernels (a name repeats: an extern call made several times) */
  index: number;
  /** its name, numbered where the name repeats (extern_kernels.mm#2), as Python stored it */
  label: string;
  colour: string;
  nodes: string[];
}

export interface FusionModel {
  output: OutputCode;
  graph: Graph | null;
  kernels: FusionKernel[];
  /** post-grad node name → the indices of the kernels that compute it, in kernel order */
  kernelsOf: Map<string, number[]>;
  unmapped: Set<string>;
  dead: Set<string>;
}

export function outputLabel(
  c: Compile,
  out: OutputCode,
  index: number
): string {
  return `${c.id} · ${out.kind}${c.output_codes.length > 1 ? ` #${index}` : ''}`;
}

export function fusionModel(c: Compile, outputIndex: number): FusionModel {
  const output = c.output_codes[outputIndex];
  const graph = c.post_grad_graphs[output.post_grad_graph] ?? null;
  const kernelsOf = new Map<string, number[]>();
  const link = (node: string, kernel: number) => {
    const list = kernelsOf.get(node);
    if (!list) {
      kernelsOf.set(node, [kernel]);
    } else if (!list.includes(kernel)) {
      list.push(kernel);
    }
  };
  let colourIndex = 0;
  const kernels = (output.kernels ?? []).map((kernel, index) => {
    const nodes = Array.isArray(kernel.post_grad_nodes)
      ? kernel.post_grad_nodes.map(String)
      : [];
    nodes.forEach(n => link(n, index));
    const colour =
      kernel.kind === 'extern'
        ? EXTERN_COLOUR
        : PALETTE[colourIndex++ % PALETTE.length];
    return { kernel, index, label: kernel.label ?? kernel.name, colour, nodes };
  });
  // A document written before launch sites: its nodes name their kernels, not which entry.
  for (const node of graph?.nodes ?? []) {
    for (const k of node.kernels ?? []) {
      if (!kernelsOf.has(String(node.name))) {
        const index = kernels.findIndex(fk => fk.kernel.name === String(k));
        if (index >= 0) {
          link(String(node.name), index);
        }
      }
    }
  }
  // An invoke_subgraph node runs its nested region's function: the kernels launched there.
  for (const call of output.subgraph_calls ?? []) {
    for (const { kernel, index } of kernels) {
      if (call.node && (kernel.subgraphs ?? []).includes(call.subgraph)) {
        link(call.node, index);
      }
    }
  }
  return {
    output,
    graph,
    kernels,
    kernelsOf,
    unmapped: new Set((output.unmapped_nodes ?? []).map(String)),
    dead: new Set((output.dead_nodes ?? []).map(String))
  };
}

export function kernelColour(model: FusionModel, node: string): string | null {
  const first = model.kernelsOf.get(node)?.[0];
  return first === undefined ? null : (model.kernels[first]?.colour ?? null);
}
