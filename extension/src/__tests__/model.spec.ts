import { diffRows, divergenceLinks } from '../model/accuracy';
import { cell, comparisonRows } from '../model/compare';
import { cudaGraphSections } from '../model/cudagraphs';
import { fusionModel, kernelColour, EXTERN_COLOUR } from '../model/fusion';
import { guardSummary, recompileRows, recompiles } from '../model/guards';
import { findings, pipeline } from '../model/overview';
import { checkDocument } from '../model/schema';
import { phaseBoxes, runtimeChart } from '../model/timing';
import { createExplorer } from '../view/explorer';
import { fixture } from './fixture';

describe('checkDocument', () => {
  it('accepts tcexplore/1 and gives missing containers empty values', () => {
    const checked = checkDocument({
      schema: 'tcexplore/1',
      compiles: [{ id: '0/0' }]
    });
    expect(checked.ok).toBe(true);
    if (checked.ok) {
      expect(checked.doc.graph_breaks).toEqual([]);
      expect(checked.doc.compiles[0].guards).toEqual([]);
      expect(checked.doc.compiles[0].aot_graphs).toEqual({});
    }
  });

  it('names both versions for a newer schema', () => {
    const checked = checkDocument({ schema: 'tcexplore/2' });
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.message).toContain('newer tcexplore');
      expect(checked.message).toContain('"tcexplore/2"');
      expect(checked.message).toContain('"tcexplore/1"');
    }
  });

  it('rejects what is not a document', () => {
    expect(checkDocument([]).ok).toBe(false);
    expect(checkDocument(null).ok).toBe(false);
    expect(checkDocument({ schema: 'other' }).ok).toBe(false);
  });
});

describe('overview', () => {
  it("draws the pipeline's stages as Python stored them, and none for an older document", () => {
    const stages = pipeline(fixture())!;
    expect(stages.map(s => s.name)).toEqual([
      'Dynamo',
      'AOTAutograd',
      'Inductor',
      'CUDA graphs'
    ]);
    expect(stages[0].counts).toContain('1 graph break');
    expect(stages[3].counts).toEqual(['no CUDA graph recorded']);
    expect(stages[3].active).toBe(false);
    expect(stages.map(s => s.time)).toEqual([
      '20.0 ms',
      '30.0 ms',
      '50.0 ms',
      undefined
    ]);
    const old = fixture();
    delete old.pipeline;
    expect(pipeline(old)).toBeNull();
    expect(
      createExplorer(old).querySelector('.tcx-overview')!.textContent
    ).toContain('saved before tcexplore stored its pipeline stages');
  });

  it("links each of the document's findings to its first evidence, compiles by id", () => {
    const doc = fixture();
    doc.findings = [
      {
        kind: 'graph_break',
        severity: 'warning',
        title: 'Graph break ×1 at model.py:12',
        count: 1,
        locations: [
          { file: '/home/me/model.py', line: 12, function: 'forward' }
        ],
        evidence: [
          {
            tab: 'source',
            file: '/home/me/model.py',
            line: 12,
            label: 'line 12'
          }
        ],
        advice: null
      },
      {
        kind: 'recompile',
        severity: 'warning',
        title: 'forward recompiled ×1',
        count: 1,
        locations: [],
        evidence: [
          { tab: 'guards', compile: doc.compiles[1].id, label: 'compile' }
        ],
        advice: 'make it dynamic',
        details: ['a guard']
      },
      {
        kind: 'timing',
        severity: 'ok',
        title: 'Compiled is 2.00× faster',
        count: 1,
        locations: [],
        evidence: [
          { tab: 'timing', label: 'Timing' },
          { tab: 'guards', compile: 'no/such', label: 'gone' }
        ],
        advice: null
      }
    ];
    const found = findings(doc);
    expect(found.map(f => f.text)).toEqual(doc.findings.map(f => f.title));
    expect(found.map(f => f.target)).toEqual([
      { tab: 'source', file: '/home/me/model.py', line: 12 },
      { tab: 'guards', compile: 1 },
      { tab: 'timing' }
    ]);
    expect(found[1].advice).toBe('make it dynamic');
    expect(found[2].evidence!.map(e => e.target)).toEqual([
      { tab: 'timing' },
      undefined
    ]);
  });
});

describe('fusion', () => {
  it('maps nodes to kernels both ways, colours extern calls grey', () => {
    const model = fusionModel(fixture().compiles[0], 0);
    expect(
      model.kernelsOf.get('relu')!.map(i => model.kernels[i].kernel.name)
    ).toEqual(['cpp_fused_relu_0']);
    expect(
      model.kernels.find(k => k.kernel.name === 'cpp_fused_relu_0')!.nodes
    ).toEqual(['relu']);
    expect(kernelColour(model, 'mm')).toBe(EXTERN_COLOUR);
    expect(kernelColour(model, 'relu')).not.toBe(EXTERN_COLOUR);
    expect(kernelColour(model, 'arg0_1')).toBeNull();
  });

  it('says why nodes are unmapped as the document stored it, and nothing where it stored nothing', () => {
    const doc = fixture();
    const output = doc.compiles[0].output_codes[0];
    output.unmapped_nodes = ['relu'];
    doc.summary.unmapped_nodes = 1;
    output.provenance = null;
    const fusionTab = () => {
      const root = createExplorer(doc);
      (
        root.querySelector('[role=tab][data-tab=fusion]') as HTMLButtonElement
      ).click();
      return root;
    };
    expect(fusionTab().querySelector('.tcx-unmapped-reason')).toBeNull();
    output.unmapped_reason =
      'torch recorded no kernel → node mapping (it does with INDUCTOR_PROVENANCE=1 …)';
    expect(
      fusionTab().querySelector('.tcx-unmapped-reason')!.textContent
    ).toContain('INDUCTOR_PROVENANCE=1');
  });

  it('keeps nodes Inductor dropped apart from unmapped ones (older documents have no list)', () => {
    const doc = fixture();
    expect(fusionModel(doc.compiles[0], 0).dead.size).toBe(0);
    doc.compiles[0].output_codes[0].dead_nodes = ['exp_default'];
    const model = fusionModel(doc.compiles[0], 0);
    expect([...model.dead]).toEqual(['exp_default']);
    expect(model.unmapped.has('exp_default')).toBe(false);
  });
});

describe('guards', () => {
  it('reads expected and actual from the reason when the fields are empty', () => {
    const doc = fixture();
    const [row] = recompileRows(doc.compiles[1], doc.compiles);
    expect(row).toEqual(
      expect.objectContaining({
        cached: '0/0',
        cachedIndex: 0,
        guard: expect.stringContaining('size mismatch'),
        expected: '8',
        actual: '16'
      })
    );
  });

  it('names each recompile by the compile it caused, its function and the guard that failed', () => {
    expect(
      recompiles(fixture().compiles).map(r => [r.compile, r.title])
    ).toEqual([
      [
        1,
        "Recompile 0/1 of forward(): tensor 'x' size mismatch at index 0. expected 8, actual 16"
      ]
    ]);
    expect(guardSummary(fixture().compiles[0])).toBe(
      '2 guards: TENSOR_MATCH ×1, LAMBDA_GUARD ×1'
    );
  });
});

describe('timing', () => {
  it('gives a bar per side and phase boxes as fractions of the compile', () => {
    expect(runtimeChart(fixture())!.bars.map(b => [b.label, b.median])).toEqual(
      [
        ['eager', 2],
        ['compiled', 1]
      ]
    );
    const boxes = phaseBoxes(fixture().compiles[0].phases);
    expect(boxes).toEqual([
      {
        name: 'entire_frame_compile',
        depth: 0,
        start: 0,
        width: 1,
        durationMs: 100
      },
      {
        name: 'backend_compile',
        depth: 1,
        start: 0.1,
        width: 0.8,
        durationMs: 80
      }
    ]);
  });
});

describe('accuracy', () => {
  it('links the first divergence to its node, kernel and line', () => {
    const links = divergenceLinks(fixture());
    expect(links.node).toEqual({
      tab: 'graphs',
      compile: 0,
      graph: 'dynamo',
      node: 'relu'
    });
    expect(links.kernels).toEqual([
      {
        name: 'cpp_fused_relu_0',
        target: {
          tab: 'fusion',
          compile: 0,
          output: 0,
          kernel: 'cpp_fused_relu_0'
        }
      }
    ]);
    expect(links.line).toEqual({
      tab: 'source',
      file: '/home/me/model.py',
      line: 11
    });
    expect(diffRows(fixture().accuracy!.outputs)[0]).toMatchObject({
      path: '(output)',
      verdict: 'differs',
      state: 'mismatch',
      mismatched: '3 of 32'
    });
  });
});

describe('compare and CUDA graphs', () => {
  it('formats the grid', () => {
    const rows = comparisonRows(fixture());
    expect(cell(rows[0], 'mode')).toBe('default');
    expect(cell(rows[0], 'speedup')).toBe('2');
  });

  it('finds CUDA-graph data only where a document has it', () => {
    const doc = fixture();
    expect(cudaGraphSections(doc)).toEqual([]);
    doc.compiles[0].metrics = { cudagraph_skip_reason: 'mutated inputs' };
    doc.compiles[1].cudagraphs = {
      partitions: [{ index: 0, nodes: 3, cudagraphable: true }],
      skips: [],
      recordings: 1
    };
    doc.runtime = {
      cudagraphs: {
        partitions: [],
        skips: [
          {
            reason: 'mutated inputs (1 instances)',
            user_stack: [{ file: 'a.py', line: 3 }]
          }
        ],
        recordings: 0
      },
      perf_hints: []
    };
    const sections = cudaGraphSections(doc);
    expect(
      sections.map(s => [
        s.compile,
        s.skipReason,
        s.partitions.length,
        s.recordings,
        s.skips.length
      ])
    ).toEqual([
      ['0/0', 'mutated inputs', 0, 0, 0],
      ['0/1', null, 1, 1, 0],
      ['run time', null, 0, 0, 1]
    ]);
  });
});
