import { createExplorer } from '../view/explorer';
import { GO_EVENT } from '../view/links';
import { fixture } from './fixture';

function tab(root: HTMLElement, id: string): HTMLButtonElement {
  return root.querySelector(`[role=tab][data-tab=${id}]`) as HTMLButtonElement;
}

function panel(root: HTMLElement, id: string): HTMLElement {
  return root.querySelector(`[role=tabpanel][data-tab=${id}]`) as HTMLElement;
}

describe('explorer', () => {
  it('has fifteen tabs, each controlling its panel, built only when opened', () => {
    const root = createExplorer(fixture());
    expect(root.classList.contains('tcx-explorer')).toBe(true);
    const tabs = [...root.querySelectorAll('[role=tab]')];
    expect(tabs.map(t => t.textContent)).toEqual([
      'Overview',
      'Source',
      'Graphs',
      'Bytecode',
      'Fusion',
      'Code',
      'Guards & recompiles',
      'Shapes',
      'CUDA graphs',
      'Timing',
      'Profile',
      'Run',
      'Memory',
      'Accuracy',
      'Compare'
    ]);
    for (const t of tabs) {
      expect(
        root
          .querySelector(`#${t.getAttribute('aria-controls')}`)
          ?.getAttribute('aria-labelledby')
      ).toBe(t.id);
    }
    expect(panel(root, 'graphs').childElementCount).toBe(0);
    expect(panel(root, 'overview').hidden).toBe(false);
    for (const t of tabs as HTMLButtonElement[]) {
      t.click();
      const p = panel(root, t.getAttribute('data-tab')!);
      expect(p.hidden).toBe(false);
      expect(p.textContent).not.toContain('could not be drawn');
      expect(p.childElementCount).toBeGreaterThan(0);
    }
    expect(panel(root, 'cudagraphs').textContent).toContain(
      'No CUDA-graph data in this document'
    );
  });

  it('hides tabs with nothing to show, says on the Overview what is missing, and still opens them from a link', () => {
    const doc = fixture();
    delete doc.accuracy;
    delete (doc as { comparison?: unknown }).comparison;
    const root = createExplorer(doc);
    const shown = [...root.querySelectorAll('[role=tab]')]
      .filter(t => !(t as HTMLElement).hidden)
      .map(t => t.getAttribute('data-tab'));
    expect(shown).toEqual([
      'overview',
      'source',
      'graphs',
      'fusion',
      'code',
      'guards',
      'timing'
    ]);
    expect(
      panel(root, 'overview').querySelector('.tcx-absent')?.textContent
    ).toBe(
      "Not in this document: bytecode (a live capture records every frame Dynamo transforms; a TORCH_TRACE log only the resume functions'); an accuracy check (tcexplore.explore() compares compiled outputs with eager); " +
        'a profile (explore(..., profile=True), %%tcompile --profile, tcexplore.capture(profile=True) or tcexplore run --profile times every kernel); a run view (a profile also times each compiled frame and the eager gaps between them); memory (AOT graphs and output code of a compile, or explore(..., memory=True)); CUDA-graph data (CUDA graphs exist on GPU runs with mode="reduce-overhead" or "max-autotune"); dynamic shapes (no size of this run became dynamic); a comparison grid (tcexplore.compare() makes one).'
    );
    tab(root, 'guards').dispatchEvent(
      new KeyboardEvent('keydown', { key: 'ArrowRight' })
    );
    expect(tab(root, 'timing').getAttribute('aria-selected')).toBe('true');
    root.dispatchEvent(
      new CustomEvent(GO_EVENT, { detail: { tab: 'cudagraphs' } })
    );
    expect(tab(root, 'cudagraphs').hidden).toBe(false);
    expect(panel(root, 'cudagraphs').hidden).toBe(false);
    expect(panel(root, 'cudagraphs').textContent).toContain(
      'No CUDA-graph data in this document'
    );
    expect(
      createExplorer(fixture()).querySelector('.tcx-absent')?.textContent
    ).toContain('; CUDA-graph data');
  });

  it('shows CUDA-graph partitions, their ops and a skip with its user line', () => {
    const doc = fixture();
    doc.compiles[0].cudagraphs = {
      summary: { partitions: 1, cudagraphable: 0, non_cudagraphable: 1 },
      partitions: [
        {
          index: 0,
          nodes: 2,
          cudagraphable: false,
          detail: 'inputs=1, outputs=1',
          ops: [
            {
              op: 3,
              reason: 'cpu op',
              ir: 'FallbackKernel',
              fx: 'aten.nonzero.default(x)',
              user_stack: []
            }
          ]
        }
      ],
      skips: [
        {
          reason: 'mutated inputs (1 instances)',
          user_stack: [{ file: 'm.py', line: 7, code: 'buf.add_(1)' }]
        }
      ],
      recordings: 0,
      rerecordings: 0
    };
    const root = createExplorer(doc);
    tab(root, 'cudagraphs').click();
    const text = panel(root, 'cudagraphs').textContent ?? '';
    expect(text).toContain('1 partitions: 0 CUDA-graphable, 1 not');
    expect(text).toContain('aten.nonzero.default(x)');
    expect(text).toContain('mutated inputs (1 instances)');
    expect(text).toContain('buf.add_(1)');
  });

  it("highlights a kernel's nodes, and a node shows its kernel", () => {
    const root = createExplorer(fixture());
    tab(root, 'fusion').click();
    const fusion = panel(root, 'fusion');
    (
      fusion.querySelector(
        '[data-kernel=cpp_fused_relu_0] button'
      ) as HTMLButtonElement
    ).click();
    expect(
      [...fusion.querySelectorAll('.tcx-node.tcx-hl')].map(n =>
        n.getAttribute('data-name')
      )
    ).toEqual(['relu']);
    expect(fusion.querySelector('.tcx-kernelinfo')?.textContent).toContain(
      'h = self.lin(x)'
    );
    const mm = fusion.querySelector('.tcx-node[data-name=mm]')!;
    mm.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(fusion.querySelector('.tcx-nodeinfo')?.textContent).toContain(
      'extern_kernels.mm'
    );
    expect(
      fusion
        .querySelector('[data-kernel="extern_kernels.mm"]')
        ?.classList.contains('tcx-active')
    ).toBe(true);
    fusion
      .querySelector('.tcx-node[data-name=arg0_1]')!
      .dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(fusion.querySelectorAll('.tcx-nodeinfo').length).toBe(1);
    expect(fusion.querySelector('.tcx-kernelinfo')).toBeNull();
  });

  it('shows kernel names whole: wrapping after "_", with the full name as a tooltip', () => {
    const root = createExplorer(fixture());
    tab(root, 'code').click();
    const name = panel(root, 'code').querySelector(
      '[data-kernel=cpp_fused_relu_0] .tcx-wrappable'
    ) as HTMLElement;
    expect(name.textContent).toBe('cpp_fused_relu_0');
    expect(name.title).toBe('cpp_fused_relu_0');
    expect(name.querySelectorAll('wbr').length).toBe(3);
  });

  it('puts recompile reasons first and the guard tables after them, folded, with counts', () => {
    const root = createExplorer(fixture());
    tab(root, 'guards').click();
    const guards = panel(root, 'guards');
    expect([...guards.querySelectorAll('h3')].map(h => h.textContent)).toEqual([
      'Recompiles (1)',
      'Guards (2 in 2 compiles)'
    ]);
    const recompile = guards.querySelector('.tcx-recompile')!;
    expect(recompile.querySelector('h4')?.textContent).toBe(
      "Recompile 0/1 of forward(): tensor 'x' size mismatch at index 0. expected 8, actual 16"
    );
    expect(
      [...recompile.querySelectorAll('td')].map(td => td.textContent)
    ).toEqual([
      '0/0',
      "tensor 'x' size mismatch at index 0. expected 8, actual 16",
      '8',
      '16',
      ''
    ]);
    const folds = [
      ...guards.querySelectorAll('details.tcx-compile-guards')
    ] as HTMLDetailsElement[];
    expect(
      recompile.compareDocumentPosition(folds[0]) &
        Node.DOCUMENT_POSITION_FOLLOWING
    ).toBeTruthy();
    expect(
      folds.map(f => [f.open, f.querySelector('summary')?.textContent])
    ).toEqual([
      [
        false,
        'Compile 0/0 · forward (model.py:10) ok 2 guards: TENSOR_MATCH ×1, LAMBDA_GUARD ×1'
      ],
      [false, 'Compile 0/1 · forward (model.py:10) okrecompile 0 guards']
    ]);
    expect(guards.querySelector('.tcx-guard-table')).toBeNull();
    (recompile.querySelector('.tcx-link') as HTMLButtonElement).click();
    expect(folds[0].open).toBe(true);
    expect(folds[0].querySelectorAll('.tcx-guard-table tbody tr').length).toBe(
      2
    );
  });

  it('follows the first divergence to its graph node', () => {
    const root = createExplorer(fixture());
    tab(root, 'accuracy').click();
    const go = [...panel(root, 'accuracy').querySelectorAll('.tcx-link')].find(
      b => b.textContent === 'relu'
    ) as HTMLButtonElement;
    go.click();
    expect(tab(root, 'graphs').getAttribute('aria-selected')).toBe('true');
    expect(
      panel(root, 'graphs')
        .querySelector('.tcx-node.tcx-selected')
        ?.getAttribute('data-name')
    ).toBe('relu');
    expect(
      panel(root, 'graphs').querySelector('.tcx-nodeinfo')?.textContent
    ).toContain('cpp_fused_relu_0');
  });

  it('never turns document text into markup', () => {
    const doc = fixture();
    const evil = '<img src=x onerror="window.pwned=1">';
    doc.compiles[0].dynamo_graph!.nodes[2].name = evil;
    doc.graph_breaks[0].message = evil; // drawn as the site's reason
    doc.compiles[0].output_codes[0].kernels[1].source = evil;
    const root = createExplorer(doc);
    for (const t of root.querySelectorAll('[role=tab]')) {
      (t as HTMLButtonElement).click();
    }
    expect(root.querySelector('img')).toBeNull();
    expect(root.textContent).toContain(evil);
  });

  it('explains a newer schema instead of drawing', () => {
    const root = createExplorer({
      schema: 'tcexplore/7',
      compiles: 'nonsense'
    });
    expect(root.querySelector('[role=tab]')).toBeNull();
    expect(root.querySelector('[role=alert]')?.textContent).toContain(
      'newer tcexplore'
    );
  });

  it('opens a big graph collapsed, at its start, its buttons outside the drawing', () => {
    const doc = fixture();
    const nodes = Array.from({ length: 900 }, (_, i) => ({
      name: `n${i}`,
      op: 'call_function' as const,
      target: 't',
      args: i ? [`n${i - 1}`] : [],
      users: []
    }));
    doc.compiles[0].dynamo_graph = {
      text: '',
      truncated: false,
      nodes,
      nodes_truncated: false
    };
    const root = createExplorer(doc);
    tab(root, 'graphs').click();
    const boxes = panel(root, 'graphs').querySelectorAll('.tcx-node');
    expect(boxes.length).toBe(40);
    expect(panel(root, 'graphs').textContent).toContain(
      '40 boxes for 900 nodes. Too big to read whole: this is its start at 100%'
    );
    expect(
      panel(root, 'graphs').querySelector(
        '.tcx-canvas .tcx-zoom-tools, .tcx-canvas button'
      )
    ).toBeNull();
  });
});
