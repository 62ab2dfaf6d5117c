import { buildGraph, groupNodes, modulePath, search, visibleGraph } from '../model/graph';
import { layout, NODE_HEIGHT } from '../model/layout';
import { Graph, GraphNode } from '../model/types';

const node = (name: string, op: string, args: string[] = []): GraphNode => ({ name, op, target: name, args, users: [] });

/** Two transformer-ish blocks: a norm's mean runs before its weight is read. */
function blocks(): Graph {
  const nodes: GraphNode[] = [node('l_x_', 'placeholder')];
  for (const b of [0, 1]) {
    nodes.push(node(`l_self_modules_blocks_modules_${b}_modules_ln_parameters_weight_`, 'placeholder'));
    nodes.push(node(`l_self_modules_blocks_modules_${b}_modules_fc_parameters_weight_`, 'placeholder'));
  }
  let x = 'l_x_';
  for (const b of [0, 1]) {
    nodes.push(node(`mean_${b}`, 'call_function', [x]));
    nodes.push(node(`mul_${b}`, 'call_function', [`mean_${b}`, `l_self_modules_blocks_modules_${b}_modules_ln_parameters_weight_`]));
    nodes.push(node(`linear_${b}`, 'call_function', [`mul_${b}`, `l_self_modules_blocks_modules_${b}_modules_fc_parameters_weight_`]));
    nodes.push(node(`relu_${b}`, 'call_function', [`linear_${b}`]));
    x = `relu_${b}`;
  }
  nodes.push(node('output', 'output', [x]));
  return { text: '', nodes };
}

describe('graph model', () => {
  it('reads module paths from Dynamo parameter names', () => {
    expect(modulePath('l_self_modules_blocks_modules_0_modules_attn_modules_qkv_parameters_weight_')).toEqual(['blocks', '0', 'attn', 'qkv']);
    expect(modulePath('l_self_modules_tok_parameters_weight_')).toEqual(['tok']);
    expect(modulePath('l_x_')).toBeNull();
  });

  it('puts each compute node in the module of the next parameter it reaches', () => {
    const model = buildGraph(blocks());
    const moduleOf = (name: string) => model.nodes[model.byName.get(name)!].module?.join('.');
    expect(moduleOf('mean_0')).toBe('blocks.0.ln');
    expect(moduleOf('relu_0')).toBe('blocks.1.ln');
    expect(moduleOf('relu_1')).toBe('blocks.1.fc');
    expect(model.edges).toContainEqual([model.byName.get('mean_0')!, model.byName.get('mul_0')!]);
  });

  it('collapses groups into one box each, with edges between boxes', () => {
    const model = buildGraph(blocks());
    const grouping = groupNodes(model, 2);
    const shown = visibleGraph(model, grouping, () => false);
    expect(shown.nodes.map(v => v.label)).toEqual(['(inputs)', 'blocks.0', 'blocks.1', '(output)']);
    expect(shown.nodes.map(v => v.count)).toEqual([1, 5, 7, 1]);
    expect(shown.edges).toEqual(expect.arrayContaining([[0, 1], [1, 2], [2, 3]]));
    const open = visibleGraph(model, grouping, key => key === 'm:blocks.0');
    expect(open.nodes.filter(v => v.node >= 0).map(v => v.label)).toContain('mean_0');
  });

  it('groups graphs without module names into runs of nodes', () => {
    const nodes = Array.from({ length: 400 }, (_, i) => node(`n${i}`, 'call_function', i ? [`n${i - 1}`] : []));
    const grouping = groupNodes(buildGraph({ text: '', nodes }), 2);
    expect(new Set(grouping.keys).size).toBe(40);
    expect(grouping.labels.get('r:0')).toBe('nodes 0–9');
  });

  it('searches names, targets and source code', () => {
    const model = buildGraph(blocks());
    expect(search(model, 'RELU').map(i => model.nodes[i].node.name)).toEqual(['relu_0', 'relu_1']);
    expect(search(model, '  ')).toEqual([]);
  });
});

describe('layout', () => {
  it('ranks a chain downwards and puts an input just above its user', () => {
    const placed = layout({ widths: [50, 50, 50, 50], edges: [[0, 2], [2, 3], [1, 3]] });
    expect(placed.y[2]).toBeGreaterThan(placed.y[0]);
    expect(placed.y[3]).toBeGreaterThan(placed.y[2]);
    expect(placed.y[1]).toBe(placed.y[2]);
  });

  it('sinks a chain of constants to just above its use', () => {
    // 0 -> 1 is a mask built from nothing that feeds 5; 2 -> 3 -> 4 -> 5 is the data path
    const placed = layout({ widths: [50, 50, 50, 50, 50, 50], edges: [[0, 1], [2, 3], [3, 4], [4, 5], [1, 5]] });
    expect(placed.y[1]).toBe(placed.y[4]);
    expect(placed.y[0]).toBe(placed.y[3]);
  });

  it('never overlaps boxes of one row', () => {
    const widths = Array.from({ length: 30 }, (_, i) => 40 + i);
    const edges: Array<[number, number]> = widths.slice(1).map((_, i) => [0, i + 1]);
    const placed = layout({ widths, edges });
    const row = widths.map((_, i) => i).filter(i => placed.y[i] === placed.y[1]).sort((a, b) => placed.x[a] - placed.x[b]);
    for (let k = 1; k < row.length; k++) {
      expect(placed.x[row[k]]).toBeGreaterThanOrEqual(placed.x[row[k - 1]] + widths[row[k - 1]]);
    }
    expect(placed.height).toBe(placed.y[1] + NODE_HEIGHT);
  });

  it('lays out ten thousand nodes quickly', () => {
    const n = 10_000;
    const edges: Array<[number, number]> = [];
    for (let i = 1; i < n; i++) {
      edges.push([i - 1, i]);
      if (i % 7 === 0) {
        edges.push([i - 5, i]);
      }
    }
    const began = Date.now();
    layout({ widths: new Array(n).fill(120), edges });
    expect(Date.now() - began).toBeLessThan(1000);
  });
});
