import * as fs from 'fs';
import * as path from 'path';

import { buildGraph, modulePath, search } from '../model/graph';
import { groupNodes } from '../model/grouping';
import {
  compoundLayout,
  LABEL_PX,
  layout,
  NODE_HEIGHT,
  SUB_PX
} from '../model/layout';
import {
  chooseOpening,
  drawing,
  fitIn,
  LEGIBLE_ZOOM,
  MARGIN,
  parentGroup
} from '../model/viewport';
import { Graph, GraphNode } from '../model/types';
import { visibleGraph } from '../model/visiblegraph';

const node = (
  name: string,
  op: GraphNode['op'],
  args: string[] = [],
  module?: string[]
): GraphNode => ({
  name,
  op,
  target: name,
  args,
  users: [],
  ...(module ? { module } : {})
});

/** Transformer-ish blocks: a norm's mean runs before its weight is read; `extra` more ops per block. */
function blocks(count = 2, extra = 0): Graph {
  const nodes: GraphNode[] = [node('l_x_', 'placeholder')];
  const blocks = Array.from({ length: count }, (_, b) => b);
  for (const b of blocks) {
    nodes.push(
      node(
        `l_self_modules_blocks_modules_${b}_modules_ln_parameters_weight_`,
        'placeholder',
        [],
        ['blocks', String(b), 'ln']
      )
    );
    nodes.push(
      node(
        `l_self_modules_blocks_modules_${b}_modules_fc_parameters_weight_`,
        'placeholder',
        [],
        ['blocks', String(b), 'fc']
      )
    );
  }
  let x = 'l_x_';
  for (const b of blocks) {
    nodes.push(node(`mean_${b}`, 'call_function', [x]));
    nodes.push(
      node(`mul_${b}`, 'call_function', [
        `mean_${b}`,
        `l_self_modules_blocks_modules_${b}_modules_ln_parameters_weight_`
      ])
    );
    nodes.push(
      node(`linear_${b}`, 'call_function', [
        `mul_${b}`,
        `l_self_modules_blocks_modules_${b}_modules_fc_parameters_weight_`
      ])
    );
    x = `linear_${b}`;
    for (let e = 0; e < extra; e++) {
      nodes.push(node(`op_${b}_${e}`, 'call_function', [x]));
      x = `op_${b}_${e}`;
    }
    nodes.push(node(`relu_${b}`, 'call_function', [x]));
    x = `relu_${b}`;
  }
  nodes.push(node('output', 'output', [x]));
  return { text: '', truncated: false, nodes, nodes_truncated: false };
}

/**
 * A %%tcompile cell's graph as Dynamo traces it (no modules): `y = head(x) + tail(x)` with
 * head/tail calling scale() from another cell, inlined; each node's source is its user line.
 */
function cellGraph(): Graph {
  const at = (file: string, fn: string, line: number, code: string) => ({
    file: `/tmp/ipykernel_1/${file}`,
    function: fn,
    line,
    code
  });
  const cell = (line: number, code: string) =>
    at('692831079.py', '<cell>', line, code);
  const lib = (fn: string, line: number, code: string) =>
    at('1420159023.py', fn, line, code);
  const op = (
    name: string,
    args: string[],
    source: ReturnType<typeof at>
  ): GraphNode => ({ ...node(name, 'call_function', args), source });
  return {
    text: '',
    truncated: false,
    nodes_truncated: false,
    nodes: [
      node('l_w_', 'placeholder'),
      op('x', [], cell(2, 'x = torch.randn(8, 4)')),
      op('relu', ['x'], lib('head', 5, 'return scale(t.relu())')),
      op('sum_1', ['relu'], lib('scale', 2, 'return t * t.sum()')),
      op('mul', ['relu', 'sum_1'], lib('scale', 2, 'return t * t.sum()')),
      op('tanh', ['x'], lib('tail', 8, 'return scale(t.tanh())')),
      op('sum_2', ['tanh'], lib('scale', 2, 'return t * t.sum()')),
      op('mul_1', ['tanh', 'sum_2'], lib('scale', 2, 'return t * t.sum()')),
      op('add', ['mul', 'mul_1'], cell(3, 'y = head(x) + tail(x)')),
      op('add_1', ['add', 'l_w_'], cell(4, 'z = y + w')),
      node('output', 'output', ['add_1'])
    ]
  };
}

describe('graph model', () => {
  it('reads the module paths capture stored, parsing no name', () => {
    const input = (name: string, module?: string[]): GraphNode => ({
      name,
      op: 'placeholder',
      target: name,
      args: [],
      users: [],
      meta: null,
      source: null,
      ...(module ? { module } : {})
    });
    expect(
      modulePath(
        input(
          'l_self_modules_blocks_modules_0_modules_attn_modules_qkv_parameters_weight_',
          ['blocks', '0', 'attn', 'qkv']
        )
      )
    ).toEqual(['blocks', '0', 'attn', 'qkv']);
    // a name like a parameter's, without the stored path: no module
    expect(
      modulePath(input('l_self_modules_tok_parameters_weight_'))
    ).toBeNull();
  });

  it("puts a module's own ops under it, not under the submodule it calls last (a real Dynamo graph)", () => {
    // tests/fixtures/graph_modules: two transformer blocks captured on CPU (regenerate.py)
    const file = path.join(
      __dirname,
      '..',
      '..',
      '..',
      'tests',
      'fixtures',
      'graph_modules',
      'graph.json'
    );
    const model = buildGraph(
      JSON.parse(fs.readFileSync(file, 'utf-8')) as Graph
    );
    const moduleOf = (name: string) =>
      model.nodes[model.byName.get(name)!].path?.join('.');
    expect(model.groupBy).toBe('module');
    for (const own of [
      'split',
      'q',
      'transpose',
      'matmul',
      'att',
      'mask',
      'masked_fill',
      'softmax',
      'att_1',
      'matmul_1'
    ]) {
      expect([own, moduleOf(own)]).toEqual([own, 'blocks.0.attn']);
    }
    expect(moduleOf('linear')).toBe('blocks.0.attn.qkv');
    expect(moduleOf('linear_1')).toBe('blocks.0.attn.proj');
    expect(moduleOf('softmax_1')).toBe('blocks.1.attn');
    expect(moduleOf('x')).toBe('blocks.0'); // the residual add after attention: Block.forward's
    expect(moduleOf('input_2')).toBe('blocks.0.mlp'); // GELU between the MLP's Linears
    expect(moduleOf('x_1')).toBe('blocks.0'); // the residual add on the line that called the MLP
    expect(moduleOf('x_3')).toBe('blocks.1');
    const grouping = groupNodes(model);
    expect(grouping.labels.get('m:blocks.0.attn')).toBe('blocks.0.attn');
    const ops = (key: string) =>
      grouping.members
        .get(key)!
        .map(i => model.nodes[i].node)
        .filter(n => n.op !== 'placeholder')
        .map(n => n.name);
    expect(ops('m:blocks.0.attn.proj')).toEqual(['linear_1']);
  });

  it("puts a hand-written norm's ops on the line that reads its weight under the norm, before and after the read", () => {
    const at = (line: number) => ({
      file: '/tmp/ipykernel_1/3650455358.py',
      function: 'forward',
      line,
      code: ''
    });
    const lin = {
      file: '/torch/nn/modules/linear.py',
      function: 'forward',
      line: 134,
      code: ''
    };
    const op = (
      name: string,
      args: string[],
      source: GraphNode['source']
    ): GraphNode => ({ ...node(name, 'call_function', args), source });
    const model = buildGraph({
      text: '',
      truncated: false,
      nodes_truncated: false,
      nodes: [
        node('l_x_', 'placeholder'),
        node(
          'l_self_modules_norm1_parameters_weight_',
          'placeholder',
          [],
          ['norm1']
        ),
        node(
          'l_self_modules_attn_modules_qkv_parameters_weight_',
          'placeholder',
          [],
          ['attn', 'qkv']
        ),
        op('pow_1', ['l_x_'], at(8)),
        op('mean', ['pow_1'], at(8)),
        op('rsqrt', ['mean'], at(8)),
        op('mul', ['l_x_', 'rsqrt'], at(8)),
        op('mul_1', ['mul', 'l_self_modules_norm1_parameters_weight_'], at(8)),
        op(
          'linear',
          ['mul_1', 'l_self_modules_attn_modules_qkv_parameters_weight_'],
          lin
        ),
        op('split', ['linear'], at(21)),
        node('output', 'output', ['split'])
      ]
    });
    const moduleOf = (name: string) =>
      model.nodes[model.byName.get(name)!].path?.join('.');
    for (const own of ['pow_1', 'mean', 'rsqrt', 'mul', 'mul_1']) {
      expect([own, moduleOf(own)]).toEqual([own, 'norm1']);
    }
    expect(moduleOf('linear')).toBe('attn.qkv');
  });

  it('puts each compute node with no source in the module of the next parameter it reaches', () => {
    const model = buildGraph(blocks());
    const moduleOf = (name: string) =>
      model.nodes[model.byName.get(name)!].path?.join('.');
    expect(model.groupBy).toBe('module');
    expect(moduleOf('mean_0')).toBe('blocks.0.ln');
    expect(moduleOf('relu_0')).toBe('blocks.1.ln');
    expect(moduleOf('relu_1')).toBe('blocks.1.fc');
    expect(model.edges).toContainEqual([
      model.byName.get('mean_0')!,
      model.byName.get('mul_0')!
    ]);
  });

  it('nests module groups: a closed group is one box, an open one a frame around its parts', () => {
    const model = buildGraph(blocks());
    const grouping = groupNodes(model);
    const closed = visibleGraph(model, grouping, () => false);
    expect(closed.nodes.map(v => v.label)).toEqual([
      '(inputs)',
      'blocks',
      '(output)'
    ]);
    expect(closed.nodes.map(v => v.count)).toEqual([1, 12, 1]);
    const open = visibleGraph(
      model,
      grouping,
      key => key === 'm:blocks' || key === '(inputs)'
    );
    expect(open.containers.map(c => c.label)).toEqual(['blocks']);
    expect(open.nodes.filter(v => v.home === 0).map(v => v.label)).toEqual([
      'blocks.0',
      'blocks.1'
    ]);
    expect(open.edges).toEqual(
      expect.arrayContaining([
        [0, 1],
        [1, 2],
        [2, 3]
      ])
    );
    const deeper = visibleGraph(
      model,
      grouping,
      key => key !== 'm:blocks.1.fc'
    );
    expect(deeper.containers.map(c => [c.label, c.parent])).toEqual([
      ['blocks', -1],
      ['blocks.0', 0],
      ['blocks.0.ln', 1],
      ['blocks.0.fc', 1],
      ['blocks.1', 0],
      ['blocks.1.ln', 4]
    ]);
    expect(deeper.nodes.find(v => v.label === 'mean_0')?.home).toBe(2);
    expect(deeper.nodes.find(v => v.label === 'blocks.1.fc')?.home).toBe(4);
  });

  it("folds a module holding exactly its parent's nodes into it, under the inner name", () => {
    const nodes = [
      node('l_x_', 'placeholder'),
      node(
        'l_self_modules_body_modules_lin_parameters_weight_',
        'placeholder',
        [],
        ['body', 'lin']
      ),
      node('linear', 'call_function', [
        'l_x_',
        'l_self_modules_body_modules_lin_parameters_weight_'
      ]),
      node('output', 'output', ['linear'])
    ];
    const grouping = groupNodes(
      buildGraph({ text: '', truncated: false, nodes, nodes_truncated: false })
    );
    expect(grouping.chains[2]).toEqual(['m:body']);
    expect(grouping.labels.get('m:body')).toBe('body.lin');
  });

  it("groups a %%tcompile cell's graph by the user function, then the line, each node was traced from", () => {
    const model = buildGraph(cellGraph());
    expect(model.groupBy).toBe('source');
    const grouping = groupNodes(model);
    const closed = visibleGraph(model, grouping, () => false);
    expect(closed.nodes.map(v => `${v.label} | ${v.sub}`)).toEqual([
      '(inputs) | 1 nodes — click to open',
      // runs of one function apart: each with its lines, or its place where they are the same
      '<cell>() line 2 · 692831079.py | 1 nodes · x = torch.randn(8, 4)',
      'head() · 1420159023.py | 1 nodes · return scale(t.relu())',
      'scale() line 2, run 1/2 · 1420159023.py | 2 nodes · return t * t.sum()',
      'tail() · 1420159023.py | 1 nodes · return scale(t.tanh())',
      'scale() line 2, run 2/2 · 1420159023.py | 2 nodes · return t * t.sum()',
      '<cell>() lines 3–4 · 692831079.py | 2 nodes — click to open',
      '(output) | 1 nodes — click to open'
    ]);
    const open = visibleGraph(model, grouping, () => true);
    // open, groups of two or more nodes are framed (a frame around one node says nothing more)
    expect(open.containers.map(c => c.label)).toEqual([
      'scale() line 2, run 1/2 · 1420159023.py',
      'scale() line 2, run 2/2 · 1420159023.py',
      '<cell>() lines 3–4 · 692831079.py'
    ]);
    expect(open.nodes.find(v => v.label === 'add')?.home).toBe(2);
    expect(open.nodes.find(v => v.label === 'relu')?.home).toBe(-1);
  });

  it('groups graphs with neither modules nor source into runs of nodes', () => {
    const nodes = Array.from({ length: 400 }, (_, i) =>
      node(`n${i}`, 'call_function', i ? [`n${i - 1}`] : [])
    );
    const grouping = groupNodes(
      buildGraph({ text: '', truncated: false, nodes, nodes_truncated: false })
    );
    expect(new Set(grouping.chains.map(c => c[0])).size).toBe(40);
    expect(grouping.labels.get('r:0')).toBe('nodes 0–9');
  });

  it('searches names, targets and source code', () => {
    const model = buildGraph(blocks());
    expect(search(model, 'RELU').map(i => model.nodes[i].node.name)).toEqual([
      'relu_0',
      'relu_1'
    ]);
    expect(search(model, '  ')).toEqual([]);
  });
});

describe('opening a graph', () => {
  const pane = { width: 700, maxHeight: 600 };

  it('opens a small graph whole, every group open, at a legible zoom and a pane no taller than it', () => {
    const model = buildGraph(cellGraph());
    const grouping = groupNodes(model);
    const opening = chooseOpening(model, grouping, {
      width: 1400,
      maxHeight: 680
    });
    expect(opening.drawing.graph.nodes.every(v => v.node >= 0)).toBe(true);
    expect(opening.fit.legible).toBe(true);
    expect(SUB_PX * opening.fit.zoom).toBeGreaterThanOrEqual(9.9); // on screen, px
    expect(opening.fit.height).toBeLessThanOrEqual(
      opening.drawing.placed.height * opening.fit.zoom + 2 * MARGIN
    );
  });

  it("opens a model's groups outermost first, as far as the drawing stays legible", () => {
    const model = buildGraph(blocks(4, 12));
    const grouping = groupNodes(model);
    const opening = chooseOpening(model, grouping, pane);
    expect(opening.fit.legible).toBe(true);
    expect(opening.fit.zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
    expect(LABEL_PX * opening.fit.zoom).toBeGreaterThanOrEqual(10.8);
    const { width, height } = opening.drawing.placed;
    expect(width * opening.fit.zoom).toBeLessThanOrEqual(pane.width);
    expect(height * opening.fit.zoom).toBeLessThanOrEqual(pane.maxHeight);
    expect([...opening.expanded]).toEqual(
      expect.arrayContaining(['m:blocks', '(inputs)'])
    );
    expect(opening.drawing.graph.nodes.length).toBeLessThan(model.nodes.length);
    const closedNext = [...grouping.depth.keys()].filter(
      k =>
        !opening.expanded.has(k) &&
        opening.expanded.has(parentGroup(grouping, k) ?? 'm:blocks')
    );
    expect(closedNext.length).toBeGreaterThan(0);
    for (const key of closedNext) {
      const more = new Set([...opening.expanded, key]);
      expect(
        fitIn(drawing(model, grouping, k => more.has(k)).placed, pane).legible
      ).toBe(false);
    }
  });

  it('opens a graph too big to read whole at 100% on its start', () => {
    const nodes = Array.from({ length: 900 }, (_, i) =>
      node(`n${i}`, 'call_function', i ? [`n${i - 1}`] : [])
    );
    const model = buildGraph({
      text: '',
      truncated: false,
      nodes,
      nodes_truncated: false
    });
    const opening = chooseOpening(model, groupNodes(model), pane);
    expect(opening.fit.legible).toBe(false);
    expect(opening.fit.zoom).toBe(1);
    expect(opening.fit.height).toBe(pane.maxHeight);
    expect(opening.drawing.graph.nodes.length).toBe(40);
  });
});

describe('layout', () => {
  it('ranks a chain downwards and puts an input just above its user', () => {
    const placed = layout({
      widths: [50, 50, 50, 50],
      edges: [
        [0, 2],
        [2, 3],
        [1, 3]
      ]
    });
    expect(placed.y[2]).toBeGreaterThan(placed.y[0]);
    expect(placed.y[3]).toBeGreaterThan(placed.y[2]);
    expect(placed.y[1]).toBe(placed.y[2]);
  });

  it('sinks a chain of constants to just above its use', () => {
    // 0 -> 1 is a mask built from nothing that feeds 5; 2 -> 3 -> 4 -> 5 is the data path
    const placed = layout({
      widths: [50, 50, 50, 50, 50, 50],
      edges: [
        [0, 1],
        [2, 3],
        [3, 4],
        [4, 5],
        [1, 5]
      ]
    });
    expect(placed.y[1]).toBe(placed.y[4]);
    expect(placed.y[0]).toBe(placed.y[3]);
  });

  it('never overlaps boxes of one row', () => {
    const widths = Array.from({ length: 30 }, (_, i) => 40 + i);
    const edges: Array<[number, number]> = widths
      .slice(1)
      .map((_, i) => [0, i + 1]);
    const placed = layout({ widths, edges });
    const row = widths
      .map((_, i) => i)
      .filter(i => placed.y[i] === placed.y[1])
      .sort((a, b) => placed.x[a] - placed.x[b]);
    for (let k = 1; k < row.length; k++) {
      expect(placed.x[row[k]]).toBeGreaterThanOrEqual(
        placed.x[row[k - 1]] + widths[row[k - 1]]
      );
    }
    expect(placed.height).toBe(placed.y[1] + NODE_HEIGHT);
  });

  it('frames each container around what it holds, nested, siblings apart', () => {
    // nodes 0, 1 in container 1 (inside 0); node 2 in container 0; node 3 on its own after it
    const placed = compoundLayout({
      widths: [60, 60, 60, 60],
      edges: [
        [0, 1],
        [1, 2],
        [2, 3]
      ],
      homes: [1, 1, 0, -1],
      parents: [-1, 0]
    });
    const inside = (i: number, c: number) => {
      const b = placed.boxes[c];
      return (
        placed.x[i] >= b.x &&
        placed.x[i] + 60 <= b.x + b.w &&
        placed.y[i] >= b.y &&
        placed.y[i] + NODE_HEIGHT <= b.y + b.h
      );
    };
    expect([inside(0, 1), inside(1, 1), inside(2, 0), inside(0, 0)]).toEqual([
      true,
      true,
      true,
      true
    ]);
    expect(inside(2, 1) || inside(3, 0)).toBe(false);
    expect(placed.y[1]).toBeGreaterThan(placed.y[0]);
    expect(placed.y[3]).toBeGreaterThanOrEqual(
      placed.boxes[0].y + placed.boxes[0].h
    );
    expect(placed.height).toBe(placed.y[3] + NODE_HEIGHT);
  });

  // How fast: benchmarks/layout_speed.mjs (a time asserted here fails on a loaded machine).
  it('lays out ten thousand nodes, each below its inputs', () => {
    const n = 10_000;
    const edges: Array<[number, number]> = [];
    for (let i = 1; i < n; i++) {
      edges.push([i - 1, i]);
      if (i % 7 === 0) {
        edges.push([i - 5, i]);
      }
    }
    const placed = layout({ widths: new Array(n).fill(120), edges });
    expect(placed.x).toHaveLength(n);
    expect(placed.y).toHaveLength(n);
    expect(edges.every(([a, b]) => placed.y[b] > placed.y[a])).toBe(true);
    expect(placed.height).toBe(Math.max(...placed.y) + NODE_HEIGHT);
  });
});
