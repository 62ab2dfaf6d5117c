import * as fs from 'fs';
import * as path from 'path';
import { matches, rows } from '../model/align';
import { cacheKeyChanges } from '../model/cachekeys';
import { computeDiff } from '../model/docdiff';
import { documentKey, guardKey, kernelText } from '../model/identity';
import { checkDocument } from '../model/schema';
import { Compile, TcxDocument } from '../model/types';
import { unified } from '../model/unified';

const FIXTURE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'docdiff'
);

function load(name: string): any {
  return JSON.parse(fs.readFileSync(path.join(FIXTURE, name), 'utf-8'));
}

function checked(data: unknown): TcxDocument {
  const result = checkDocument(data);
  if (!result.ok) {
    throw new Error(result.message);
  }
  return result.doc;
}

function doc(name: string): TcxDocument {
  return checked(load(name));
}

describe('computeDiff', () => {
  it('gives exactly what the Python implementation gives on the shared fixture', () => {
    expect(
      computeDiff(doc('relu.json'), doc('gelu.json'), 'relu', 'gelu')
    ).toEqual(load('expected.json'));
  });

  it('finds nothing between a document and itself', () => {
    const diff = computeDiff(doc('relu.json'), doc('relu.json'), 'a', 'b');
    expect(Object.values(diff.summary).every(v => v === 0)).toBe(true);
    expect(diff.compiles.length).toBe(doc('relu.json').compiles.length);
    expect(diff.compiles.every(c => c.status === 'same')).toBe(true);
  });

  // relu, gelu and relu again were explored in one process: torch numbered the step's
  // compiles 0/0, 2/0, 4/0 (tests/fixtures/docdiff/regenerate.py); relu again differs only in
  // its status, a hit in the FX graph cache relu filled; tests/docdiff/test_docdiff.py alike
  it("pairs the compiles of one process by their place in each document, not by torch's numbers", () => {
    const again = computeDiff(
      doc('relu.json'),
      doc('relu_again.json'),
      'a',
      'b'
    );
    expect(again.compiles.map(c => [c.status, c.a?.id, c.b?.id])).toEqual([
      ['changed', '0/0', '4/0'],
      ['same', '1/0', '5/0']
    ]);
    expect(again.compiles[0].changes).toEqual([
      { field: 'status', a: 'ok', b: 'cache_hit' }
    ]);
  });

  it("pairs documents written before frame_compile_index by torch's numbers", () => {
    const old = (name: string) => {
      const data = load(name);
      data.compiles.forEach((c: any) => delete c.frame_compile_index);
      return data;
    };
    const counts = (b: any) => {
      const diff = computeDiff(checked(old('relu.json')), checked(b), 'a', 'b');
      return [
        diff.summary.compiles_added,
        diff.summary.compiles_removed,
        diff.summary.compiles_changed
      ];
    };
    const again = old('relu_again.json'); // each a frame's first compile (0/0 and 4/0)
    expect(counts(again)).toEqual([0, 0, 1]);
    again.compiles.forEach((c: any) => (c.frame_compile_id = 2)); // a cell run again: 0/2
    expect(counts(again)).toEqual([2, 2, 0]);
  });

  it('pairs a resume function whose break moved to another line', () => {
    const moved = load('relu_again.json');
    moved.compiles.forEach((c: any) => {
      c.frame.line += 3;
      c.frame.function = c.frame.function.replace(/_at_39$/, '_at_42');
    });
    const diff = computeDiff(doc('relu.json'), checked(moved), 'a', 'b');
    expect(diff.compiles.map(c => [c.status, c.b?.frame?.function])).toEqual([
      ['changed', 'step'], // its status: a cache hit
      ['same', 'torch_dynamo_resume_in_step_at_42']
    ]);
  });

  it('names the one changed Dynamo node of relu -> gelu', () => {
    const diff = computeDiff(
      doc('relu.json'),
      doc('gelu.json'),
      'relu',
      'gelu'
    );
    const dynamo = diff.compiles[0].graphs.find(g => g.graph === 'dynamo')!;
    expect(
      dynamo.nodes.map(n => [n.status, n.a?.target, n.b?.target, n.changes])
    ).toEqual([['changed', 'torch.relu', 'torch._C._nn.gelu', ['target']]]);
  });

  it('pairs a compile across files only when nothing in its own file does, and says so', () => {
    const moved = JSON.parse(
      JSON.stringify(load('gelu.json'))
        .split('tests/fixtures/docdiff/regenerate.py')
        .join('elsewhere/train_v2.py')
    );
    const checked = checkDocument(moved);
    if (!checked.ok) {
      throw new Error(checked.message);
    }
    const sameFile = computeDiff(doc('relu.json'), doc('gelu.json'), 'a', 'b');
    const across = computeDiff(doc('relu.json'), checked.doc, 'a', 'b');
    const shape = (entry: any) => [
      entry.graphs.flatMap((g: any) =>
        g.nodes.map((n: any) => [
          g.graph,
          n.status,
          n.a?.target,
          n.b?.target,
          n.changes
        ])
      ),
      entry.outputs.flatMap((o: any) =>
        o.kernels.map((k: any) => [o.output, k.status, k.a?.name, k.b?.name])
      )
    ];
    across.compiles.forEach((paired, i) => {
      const plain = sameFile.compiles[i];
      expect(paired.status).toBe('changed');
      expect(paired.changes).toEqual([
        ...plain.changes,
        { field: 'file', a: 'regenerate.py', b: 'train_v2.py' }
      ]);
      expect(shape(paired)).toEqual(shape(plain));
    });
    expect({ ...across.summary, compiles_changed: 0 }).toEqual({
      ...sameFile.summary,
      compiles_changed: 0
    });
  });

  it('counts a compile only one side has once, without itemising it', () => {
    const relu = doc('relu.json');
    const empty = { ...relu, compiles: [] } as TcxDocument;
    const diff = computeDiff(relu, empty, 'a', 'b');
    expect(diff.summary.compiles_removed).toBe(relu.compiles.length);
    expect(diff.summary.nodes_removed).toBe(0);
    expect(
      diff.compiles.every(c => c.status === 'removed' && !c.graphs.length)
    ).toBe(true);
  });
});

describe('align', () => {
  it('pairs a replaced run from its end and keeps renamed neighbours matched', () => {
    const a = ['x', 'relu', 'mul'];
    const b = ['x', 'm', 'erf', 'm2', 'mul'];
    const { found, approximate } = matches(a, b);
    expect(approximate).toBe(false);
    expect(found).toEqual([
      [0, 0],
      [2, 4]
    ]);
    expect(rows(a.length, b.length, found, () => true)).toEqual([
      [0, 0],
      [null, 1],
      [null, 2],
      [1, 3],
      [2, 4]
    ]);
  });

  it('does not pair what canPair refuses', () => {
    expect(rows(1, 1, [], () => false)).toEqual([
      [0, null],
      [null, 0]
    ]);
  });
});

describe('unified', () => {
  it('writes diff -u hunks, comparing keys and showing the lines as written', () => {
    const a = ['def k_0(x):', '    return x', ''];
    const b = ['def k_1(x):', '    return x + 1', ''];
    const keys = (lines: string[]) => lines.map(l => l.replace(/k_\d/, 'K'));
    expect(unified(a, b, keys(a), keys(b), 'k_0', 'k_1')).toBe(
      [
        '--- k_0',
        '+++ k_1',
        '@@ -1,3 +1,3 @@',
        ' def k_0(x):',
        '-    return x',
        '+    return x + 1',
        ' '
      ].join('\n')
    );
    expect(unified(a, a, a, a, 'x', 'y')).toBe('');
  });
});

describe('identity', () => {
  it('compares guards and kernels by the masked forms capture stored, parsing no text', () => {
    // capture masked the object id (tcexplore/capture/parsers/identity.py): same key
    const g = (expression: string) =>
      guardKey({
        type: 'ID_MATCH',
        source: "G['f']",
        expression,
        masked: { source: "G['f']", expression: "___check_obj_id(G['f'], ?)" }
      });
    expect(g("___check_obj_id(G['f'], 140176378379248)")).toBe(
      g("___check_obj_id(G['f'], 94624617429712)")
    );
    const extern = (source: string, names: string[]) => ({
      name: 'extern_kernels.mm',
      kind: 'extern' as const,
      source,
      post_grad_nodes: [],
      aten_ops: [],
      user_lines: [],
      mapping: 'none' as const,
      // extern_kernels.mm(buf?, NAME, out=buf?), as capture cut it
      tokens: [
        { text: 'extern_kernels', name: true },
        { text: '.mm(', name: false },
        { text: 'buf', name: true },
        { text: '?, ', name: false },
        { text: names[0], name: true },
        { text: ', ', name: false },
        { text: 'out', name: true },
        { text: '=', name: false },
        { text: 'buf', name: true },
        { text: '?)', name: false }
      ]
    });
    expect(
      kernelText(
        extern('extern_kernels.mm(buf2, mul, out=buf3)', ['mul']),
        new Map([['mul', 'mul_3']])
      )
    ).toBe(
      kernelText(extern('extern_kernels.mm(buf4, mul_3, out=buf5)', ['mul_3']))
    );
  });

  it('keys a document by its id, else by creation time and counts', () => {
    expect(
      documentKey({
        id: 'abc',
        schema: 'tcexplore/1',
        summary: {}
      } as unknown as TcxDocument)
    ).toBe('abc');
    expect(
      documentKey({
        schema: 'tcexplore/1',
        created: 't',
        summary: { graphs: 1 }
      } as unknown as TcxDocument)
    ).toBe('t|1,,,,,,,');
  });
});

describe('cache key changes', () => {
  // the same records as tests/findings/test_findings.py's, with the same result
  const record = (hash: string, fusion: string) =>
    ({
      cache: [
        {
          cache: 'fx_graph',
          result: 'hit',
          key_components: [
            { name: 'gm', hash: 'aa', value: '<lambda>()' },
            { name: 'inductor_config[max_fusion_size]', hash, value: fusion },
            { name: 'inductor_config[long]', hash: 'cc', value: 'x'.repeat(10) }
          ]
        }
      ]
    }) as unknown as Compile;

  it('names the components whose hash differs, as docdiff/cache_keys.py does', () => {
    expect(cacheKeyChanges(record('bb', '64'), record('bb', '64'))).toEqual([]);
    expect(cacheKeyChanges(record('bb', '64'), record('dd', '32'))).toEqual([
      {
        field: 'FX graph cache key: inductor_config[max_fusion_size]',
        a: '64',
        b: '32'
      }
    ]);
    expect(cacheKeyChanges(record('bb', '6…'), record('dd', '6…'))[0].a).toBe(
      '6…'
    );
    // a value printed with an address: another text, the same hash, the same key
    expect(
      cacheKeyChanges(
        record('bb', '<f at 0x7f1>'),
        record('bb', '<f at 0x7f2>')
      )
    ).toEqual([]);
  });
});
