/** Compiled autograd's backward in the compile tree, unbacked symbols in the Shapes tab, a
 * nested region's calls in the Fusion tab. */

import { compileTree, TreeNode } from '../model/compiletree';
import { fusionModel } from '../model/fusion';
import { guardRole, shapeEntries } from '../model/shapes';
import { fixture } from './fixture';

const user = (line: number, fn: string, code: string) => ({
  file: '/home/me/train.py',
  line,
  function: fn,
  code
});

function all(nodes: TreeNode[]): TreeNode[] {
  return nodes.flatMap(n => [n, ...all(n.children)]);
}

describe('two frames at one location in the compile tree', () => {
  it('are two entries, never the compiles of one frame (#43)', () => {
    // torch compiles the same location as two frames (after torch.compiler.reset(), a
    // function defined again): 3/0 and 11/0 are two frames with a compile each
    const doc = fixture();
    const first = {
      ...doc.compiles[0],
      id: '3/0',
      frame_id: 3,
      frame_compile_id: 0,
      recompile_reasons: [],
      stack: [user(20, '<module>', 'step(x, y)'), user(10, 'step', '')]
    };
    doc.compiles = [first, { ...first, id: '11/0', frame_id: 11 }];
    const framed = all(compileTree(doc)).filter(n => n.compiles.length);
    expect(framed.map(n => [n.frameId, n.compiles.map(c => c.id)])).toEqual([
      [3, ['3/0']],
      [11, ['11/0']]
    ]);
  });
});

describe('compiled autograd in the compile tree', () => {
  const doc = fixture();
  const step = doc.compiles[0];
  step.stack = [user(20, '<module>', 'step(x, y)'), user(10, 'step', '')];
  const backward = {
    ...step,
    id: '!0/1/0',
    frame_id: 1,
    compiled_autograd_id: 0,
    recompile_reasons: [],
    frame: {
      file: '<eval_with_key>.5',
      line: 4,
      function: 'forward',
      code: null
    },
    stack: [
      user(20, '<module>', 'step(x, y)'),
      user(14, 'step', 'loss.backward()'),
      { file: '<eval_with_key>.5', line: 4, function: 'forward', code: null }
    ]
  };
  doc.compiles = [step, backward];
  doc.compiled_autograd = [
    {
      id: 0,
      graph: null,
      symbols: [],
      symbolic_guards: [],
      compiles: ['!0/1/0'],
      step: step.id,
      call: user(14, 'step', 'loss.backward()')
    }
  ];

  it('hangs the traced backward under the step that ran it, at its backward line', () => {
    const nodes = all(compileTree(doc));
    const stepNode = nodes.find(n => n.compiles.some(c => c.id === step.id))!;
    const child = stepNode.children.find(n => n.backwardPass === 0)!;
    expect(child.compiles.map(c => c.id)).toEqual(['!0/1/0']);
    expect(child.frame.line).toBe(14);
    expect(
      nodes.filter(
        n => n.frame.function === 'forward' && n.backwardPass === undefined
      )
    ).toEqual([]);
  });

  it('keeps a backward whose step the document does not name on its own call path', () => {
    const orphan = {
      ...doc,
      compiled_autograd: [{ ...doc.compiled_autograd![0], step: null }]
    };
    const nodes = all(compileTree(orphan));
    expect(nodes.some(n => n.backwardPass !== undefined)).toBe(false);
    expect(
      nodes.find(n => n.compiles.some(c => c.id === '!0/1/0'))!.frame.function
    ).toBe('forward');
  });
});

describe('unbacked symbols in the Shapes tab', () => {
  it('names the runtime assert with the wrapper line that checks it', () => {
    const doc = fixture();
    const made = user(11, 'f', 'picked = x[x.nonzero().squeeze(1)]');
    const guards = [
      {
        ...made,
        expr: 'u0 >= 0',
        kind: 'runtime_assert' as const,
        compile: '0/0',
        check: { output: 'inference', line: 259 }
      },
      { ...made, expr: 'u0 <= 5', kind: 'guard' as const, compile: '0/0' }
    ];
    doc.findings = [
      {
        kind: 'dynamic_shape',
        severity: 'info',
        title: 'u0 is unbacked',
        count: 1,
        locations: [],
        evidence: [],
        shape: {
          name: 'u0',
          symbol: 'u0',
          range: '(−∞, ∞)',
          compile: '0/0',
          unbacked: true,
          made_at: made,
          guards
        }
      } as never
    ];
    const [entry] = shapeEntries(doc);
    expect(entry.made_at?.line).toBe(11);
    expect(entry.guards.map(guardRole)).toEqual([
      'runtime assert: inference code line 259',
      'guards it'
    ]);
  });
});

describe('a nested compile region in the Fusion tab', () => {
  it('links each invoke_subgraph node to the kernels its subgraph function launches', () => {
    const doc = fixture();
    const c = doc.compiles[0];
    const output = c.output_codes[0];
    output.kernels = [
      ...output.kernels,
      {
        name: 'cpp_fused_add_relu_0',
        kind: 'cpp',
        source: '',
        post_grad_nodes: ['relu', 'add'],
        aten_ops: [],
        user_lines: [],
        mapping: 'provenance',
        subgraphs: ['repeated_subgraph0']
      }
    ];
    output.subgraph_calls = [
      {
        subgraph: 'repeated_subgraph0',
        line: 40,
        call: 'buf0 = repeated_subgraph0(repeated_subgraph0_args)',
        node: 'invoke_subgraph'
      }
    ];
    const model = fusionModel(c, 0);
    expect(
      model.kernelsOf
        .get('invoke_subgraph')!
        .map(i => model.kernels[i].kernel.name)
    ).toEqual(['cpp_fused_add_relu_0']);
  });
});
