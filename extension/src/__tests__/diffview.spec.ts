import * as fs from 'fs';
import * as path from 'path';
import { checkDiff, splitRows } from '../model/diffview';
import { computeDiff } from '../model/docdiff';
import { documentKey } from '../model/identity';
import { checkDocument } from '../model/schema';
import { TcxDocument } from '../model/types';
import { createDiffView } from '../view/docdiff';
import { createExplorer } from '../view/explorer';
import { pageLinks } from '../view/links';
import { sidebarContent } from '../view/sidebar';

const FIXTURE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'docdiff'
);
const load = (name: string): any =>
  JSON.parse(fs.readFileSync(path.join(FIXTURE, name), 'utf-8'));
const doc = (name: string): TcxDocument =>
  (checkDocument(load(name)) as { doc: TcxDocument }).doc;

function openAll(root: HTMLElement): void {
  for (const details of root.querySelectorAll('details')) {
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
  }
}

describe('diff view', () => {
  it('names a notebook cell\'s lines "cell [3], line 2", not by IPython\'s file name', () => {
    const cells = path.join(
      FIXTURE,
      '..',
      'graph_break_audit',
      'document.json'
    );
    const a = (
      checkDocument(JSON.parse(fs.readFileSync(cells, 'utf-8'))) as {
        doc: TcxDocument;
      }
    ).doc;
    const b = JSON.parse(JSON.stringify(a)) as TcxDocument;
    b.compiles[0].guards.push({
      type: 'TENSOR_MATCH',
      source: "L['x']",
      expression: "check_tensor(L['x'])",
      user_code: null,
      user_location: { file: '/tmp/ipykernel_978/3824899368.py', line: 3 }
    });
    const root = createDiffView(
      computeDiff(a, b, 'inductor', 'aot_eager'),
      () => true
    );
    expect(
      root.querySelector('.tcx-diff-compile > summary')?.textContent
    ).toContain('0/0 <cell> (cell [3], line 2)');
    expect(root.textContent).not.toMatch(/3824899368|1420159023/);
  });

  it('shows the changed Dynamo node and both kernel names side by side', () => {
    const root = createDiffView(load('expected.json'), () => true);
    expect(root.querySelector('.tcx-diff-counts')?.textContent).toContain(
      'nodes'
    );
    const dynamo = root.querySelector('[data-graph=dynamo]')!;
    expect(dynamo.querySelectorAll('tbody tr').length).toBe(1);
    expect(dynamo.textContent).toContain('torch.relu → torch._C._nn.gelu');
    const kernels = [
      ...root.querySelectorAll('.tcx-diff-kernel > summary')
    ].map(s => s.textContent);
    expect(kernels).toContain(
      '~ changed cpp_fused_mul_relu_threshold_backward_0 → cpp_fused_gelu_mul_0'
    );
    expect(root.querySelector('.tcx-diff-measurements')?.textContent).toContain(
      'compiled_ms'
    );
  });

  it("builds a kernel's source diff side by side when opened", () => {
    const root = createDiffView(load('expected.json'), () => true);
    expect(root.querySelector('.tcx-diff-source')).toBeNull();
    openAll(root);
    const source = root.querySelector('.tcx-diff-source')!;
    expect(
      source.querySelectorAll('td.tcx-diff-removed').length
    ).toBeGreaterThan(0);
    expect(source.querySelectorAll('td.tcx-diff-added').length).toBeGreaterThan(
      0
    );
    expect(root.querySelector('.tcx-diff-fused')?.textContent).toContain(
      'relu → mul_2'
    );
  });

  it('follows a node to its explorer, or says that side is not open', () => {
    const calls: unknown[] = [];
    const root = createDiffView(load('expected.json'), (side, target) => {
      calls.push([side, target]);
      return side === 'b';
    });
    const links = [
      ...root.querySelectorAll('[data-graph=dynamo] .tcx-link')
    ] as HTMLButtonElement[];
    links[1].click();
    expect(calls[0]).toEqual([
      'b',
      { tab: 'graphs', compile: 0, graph: 'dynamo', node: 'h_1' }
    ]);
    expect(root.querySelector('.tcx-diff-status')?.textContent).toBe('');
    links[0].click();
    expect(root.querySelector('.tcx-diff-status')?.textContent).toContain(
      'A · relu is not open here'
    );
  });

  it('links into an explorer on the page: it opens the graph at that node', () => {
    const explorer = createExplorer(load('gelu.json'));
    document.body.appendChild(explorer);
    window.requestAnimationFrame = () => 0;
    const open = pageLinks({
      a: 'not-on-page',
      b: documentKey(doc('gelu.json'))
    });
    expect(
      open('a', { tab: 'graphs', compile: 0, graph: 'dynamo', node: 'h_1' })
    ).toBe(false);
    expect(
      open('b', { tab: 'graphs', compile: 0, graph: 'dynamo', node: 'h_1' })
    ).toBe(true);
    expect(
      explorer
        .querySelector('[role=tab][data-tab=graphs]')
        ?.getAttribute('aria-selected')
    ).toBe('true');
    expect(
      explorer
        .querySelector('.tcx-node.tcx-selected')
        ?.getAttribute('data-name')
    ).toBe('h_1');
    explorer.remove();
  });

  it('never turns names or code into markup', () => {
    const evil = '<img src=x onerror="window.pwned=1">';
    const a = doc('relu.json');
    const b = doc('gelu.json');
    b.compiles[0].dynamo_graph!.nodes.find(n => n.name === 'h_1')!.name = evil;
    b.compiles[0].output_codes[0].kernels[0].source += evil;
    const root = createDiffView(computeDiff(a, b, evil, 'b'), () => true);
    openAll(root);
    expect(root.querySelector('img')).toBeNull();
    expect(root.textContent).toContain(evil);
  });

  it('explains a newer diff schema instead of drawing', () => {
    const root = createDiffView({ schema: 'tcexplore-diff/3' });
    expect(root.querySelector('[role=alert]')?.textContent).toContain(
      'newer tcexplore'
    );
    expect(checkDiff({ schema: 'x' }).ok).toBe(false);
  });

  it('names each side once: its letter, and its label where one was given', () => {
    const heads = (labelA: string, labelB: string) =>
      [
        ...createDiffView(
          computeDiff(doc('relu.json'), doc('gelu.json'), labelA, labelB),
          () => true
        ).querySelectorAll('.tcx-diff-side strong')
      ].map(e => e.textContent);
    expect(heads('A', 'B')).toEqual(['A', 'B']);
    expect(heads('relu', 'gelu')).toEqual(['A · relu', 'B · gelu']);
  });

  it('says so when nothing differs', () => {
    const root = createDiffView(
      computeDiff(doc('relu.json'), doc('relu.json'), 'a', 'b'),
      () => true
    );
    expect(root.textContent).toContain(
      'No differences in what torch.compile produced.'
    );
    expect(root.querySelector('.tcx-diff-compile')).toBeNull();
  });
});

describe('splitRows', () => {
  it('puts removed lines beside the added lines they became', () => {
    const rows = splitRows(
      [
        '--- a',
        '+++ b',
        '@@ -1,3 +1,2 @@',
        ' x',
        '-old1',
        '-old2',
        '+new',
        ' y'
      ].join('\n')
    );
    expect(rows).toEqual([
      { hunk: '@@ -1,3 +1,2 @@' },
      {
        a: { no: 1, text: 'x', kind: 'context' },
        b: { no: 1, text: 'x', kind: 'context' }
      },
      {
        a: { no: 2, text: 'old1', kind: 'removed' },
        b: { no: 2, text: 'new', kind: 'added' }
      },
      {
        a: { no: 3, text: 'old2', kind: 'removed' },
        b: { no: null, text: '', kind: 'empty' }
      },
      {
        a: { no: 4, text: 'y', kind: 'context' },
        b: { no: 3, text: 'y', kind: 'context' }
      }
    ]);
  });
});

describe('picking two to diff', () => {
  it('in the Compare tab: two picked rows give their diff', async () => {
    const host = {
      ...load('relu.json'),
      comparison: {
        rows: [
          {
            backend: 'inductor',
            mode: null,
            dynamic: null,
            status: 'ok',
            document: load('relu.json')
          },
          {
            backend: 'inductor',
            mode: 'x',
            dynamic: null,
            status: 'ok',
            document: load('gelu.json')
          }
        ]
      }
    };
    const root = createExplorer(host);
    (
      root.querySelector('[role=tab][data-tab=compare]') as HTMLButtonElement
    ).click();
    const picks = [
      ...root.querySelectorAll('.tcx-compare .tcx-pick')
    ] as HTMLInputElement[];
    const button = [...root.querySelectorAll('.tcx-compare button')].find(
      b => b.textContent === 'Diff the two picked rows'
    ) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    for (const pick of picks) {
      pick.checked = true;
      pick.dispatchEvent(new Event('change'));
    }
    expect(button.disabled).toBe(false);
    button.click();
    await new Promise(resolve => setTimeout(resolve, 0)); // the rows' documents are unpacked first
    const view = root.querySelector('.tcx-compare-detail .tcx-diffview')!;
    expect(view.querySelector('[data-graph=dynamo]')?.textContent).toContain(
      'torch._C._nn.gelu'
    );
    (
      view.querySelector('[data-graph=dynamo] .tcx-link') as HTMLButtonElement
    ).click();
    expect(root.querySelector('.tcx-compare-linked h4')?.textContent).toBe(
      'A: inductor / default / dynamic='
    );
  });

  it('in the sidebar: the diff is offered once two are picked', () => {
    const entries = [
      { cell: 0, execution: 1, output: 0, label: 'f', detail: '' },
      { cell: 2, execution: 3, output: 0, label: 'g', detail: '' }
    ];
    const picked = new Set<number>();
    let ran = 0;
    const render = () =>
      sidebarContent(
        [
          {
            title: 'nb',
            entries,
            jump: () => undefined,
            picked: e => picked.has(e.cell),
            pick: (e, on) => (on ? picked.add(e.cell) : picked.delete(e.cell))
          }
        ],
        { picked: picked.size, run: () => ran++ }
      );
    const first = render();
    expect(
      (first.querySelector('.tcx-sidebar-diff-button') as HTMLButtonElement)
        .disabled
    ).toBe(true);
    for (const box of first.querySelectorAll('.tcx-pick')) {
      (box as HTMLInputElement).checked = true;
      box.dispatchEvent(new Event('change'));
    }
    const second = render();
    const button = second.querySelector(
      '.tcx-sidebar-diff-button'
    ) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    button.click();
    expect(ran).toBe(1);
  });
});
