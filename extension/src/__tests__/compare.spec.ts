import {
  compileChart,
  comparisonGrid,
  documentGrid,
  OLD_GRID_NOTE,
  speedupChart
} from '../model/compare';
import { findExplorations } from '../model/notebook';
import { ComparisonRow, MIME_TYPE, TcxDocument } from '../model/types';
import { createComparisonView } from '../view/compare';
import { createExplorer } from '../view/explorer';
import { fixture } from './fixture';

const settle = () => new Promise(resolve => setTimeout(resolve, 0));

function row(label: string, extra: Partial<ComparisonRow>): ComparisonRow {
  const [backend, mode] = label.split(' / ');
  return {
    label,
    backend,
    mode: mode === 'default' ? null : mode,
    dynamic: null,
    status: 'ok',
    error: null,
    compile_s: null,
    median_ms: null,
    speedup: null,
    max_abs_err: 0,
    graphs: 1,
    graph_breaks: 0,
    kernels: 0,
    speedup_interval: null,
    noisy: false,
    document: null,
    document_left_out: null,
    ...extra
  };
}

/** A row's speedup in the words Python gives it (tcexplore/findings/comparison.py). */
function words(text: string, title: string): ComparisonRow['speedup_words'] {
  return { text, title };
}

/** A grid as compare() makes it: rows, and what Python decided of them. */
function output() {
  /** a row's document as the output carries it: JSON the grid checks before a view reads it */
  const doc = (backend: string): ComparisonRow['document'] => {
    const d = fixture();
    return JSON.parse(
      JSON.stringify({
        ...d,
        explore: { compile_kwargs: { backend }, device: 'cpu', error: null }
      })
    );
  };
  return {
    schema: 'tcexplore/1',
    kind: 'comparison',
    tool: { name: 'tcexplore', version: '0' },
    created: '2026-01-01T00:00:00+00:00',
    rows: [
      row('inductor / default / dynamic=None', {
        compile_s: 2.5,
        median_ms: 1,
        speedup: 1.6,
        speedup_interval: [1.4, 1.8],
        kernels: 2,
        document: doc('inductor'),
        speedup_words: words(
          '1.60×',
          'inductor / default / dynamic=None: 1.60× the speed of eager, 95% interval 1.40–1.80×'
        )
      }),
      row('aot_eager / default / dynamic=None', {
        compile_s: 0.2,
        median_ms: 2,
        speedup: 0.8,
        speedup_interval: [0.5, 3.2],
        noisy: true,
        document: doc('aot_eager'),
        speedup_words: words(
          '0.800× (unclear)',
          'aot_eager / default / dynamic=None: 0.800× the speed of eager, 95% interval 0.500–3.20×'
        )
      }),
      row('broken / default / dynamic=None', {
        status: 'error',
        error:
          "BackendCompilerFailed: backend='broken' raised:\nRuntimeError: no kernels for you",
        graphs: null,
        document: doc('broken'),
        speedup_words: words('failed', 'BackendCompilerFailed: ...'),
        error_line:
          "BackendCompilerFailed: backend='broken' raised: RuntimeError: no kernels for you"
      }),
      row('inductor / max-autotune / dynamic=None', {
        compile_s: 9,
        speedup: 1.7,
        document_left_out: {
          reason: 'too big for this output',
          bytes: 9_000_000
        },
        speedup_words: words(
          '1.70×',
          'inductor / max-autotune / dynamic=None: 1.70× the speed of eager'
        )
      })
    ],
    best_row: 3,
    winning_row: 3,
    headline:
      '4 configurations; fastest that matches eager: inductor / max-autotune / dynamic=None at 1.70× the speed of eager; 1 failed.',
    listing: { label: '4 configurations compared', detail: '1 failed' }
  };
}

describe('the comparison grid', () => {
  it('draws speedup and compile time per configuration to scale, 1× marked, in the words Python stored', () => {
    const grid = comparisonGrid(output());
    const speed = speedupChart(grid);
    expect(speed.reference).toEqual({ value: 1, label: '1× = eager' });
    expect(speed.axis.ticks[0].value).toBe(0);
    speed.bars.forEach((bar, i) => {
      const speedup = grid.rows[i].speedup;
      expect(bar.length === null ? null : bar.length * speed.axis.max).toEqual(
        speedup === null ? null : expect.closeTo(speedup as number, 9)
      );
    });
    expect(speed.bars.map(b => b.value)).toEqual([
      '1.60×',
      '0.800× (unclear)',
      'failed',
      '1.70×'
    ]);
    expect(speed.bars[1].offScale).toBe('to 3.20×');
    expect(speed.bars[0].title).toBe(output().rows[0].speedup_words!.title);
    const compile = compileChart(grid);
    expect(compile.bars[3].length! * compile.axis.max).toBeCloseTo(9, 9);
    expect(compile.axis.title).toBe('first call: compile + one run (s)');
    expect([grid.headline, grid.best, grid.winning]).toEqual([
      output().headline,
      3,
      3
    ]);
  });

  it('says a grid saved before its decisions were stored has none, marking no row', () => {
    const old = output() as Record<string, unknown>;
    delete old.headline;
    delete old.best_row;
    delete old.winning_row;
    const view = createComparisonView(old);
    expect(view.textContent).toContain(OLD_GRID_NOTE);
    expect(view.querySelectorAll('tr.tcx-best')).toHaveLength(0);
  });

  it('renders as an output: charts, the table, a failed row with its error', () => {
    const view = createComparisonView(output());
    expect(view.querySelectorAll('svg.tcx-axis-chart')).toHaveLength(2);
    const trs = [...view.querySelectorAll('.tcx-compare-table tbody tr')];
    expect(trs.map(tr => tr.children[1].textContent)).toEqual(
      output().rows.map(r => r.label)
    );
    expect(trs[3].classList.contains('tcx-best')).toBe(true);
    const failed = trs[2].querySelector('.tcx-row-error') as HTMLDetailsElement;
    expect(failed.querySelector('summary')?.textContent).toBe(
      "BackendCompilerFailed: backend='broken' raised: RuntimeError: no kernels for you"
    );
    expect(failed.textContent).toContain('no kernels for you');
  });

  it("opens a row's explorer below the grid, the row highlighted, without drawing the grid again inside it", async () => {
    const view = createComparisonView(output());
    (
      view.querySelector('.tcx-compare-table tr[data-row="1"]') as HTMLElement
    ).click();
    await settle();
    const detail = view.querySelector('.tcx-compare-detail') as HTMLElement;
    expect(detail.querySelector('h4')?.textContent).toBe(
      'aot_eager / default / dynamic=None'
    );
    const explorer = detail.querySelector('.tcx-explorer') as HTMLElement;
    expect(
      (explorer.querySelector('[role=tab][data-tab=compare]') as HTMLElement)
        .hidden
    ).toBe(true);
    expect(view.querySelectorAll('.tcx-compare-table')).toHaveLength(1);
    expect(view.querySelectorAll('tr.tcx-opened')).toHaveLength(1);
    expect(
      (view.querySelector('tr.tcx-opened') as HTMLElement).dataset.row
    ).toBe('1');
    (
      view.querySelector('.tcx-compare-table tr[data-row="0"]') as HTMLElement
    ).click();
    await settle();
    expect(detail.querySelector('h4')?.textContent).toBe(
      'inductor / default / dynamic=None'
    );
    expect(
      (view.querySelector('tr.tcx-opened') as HTMLElement).dataset.row
    ).toBe('0');
  });

  it("shows the rows torch ran as another, folded into it with torch's words", () => {
    const data = output();
    data.rows[1].same_runs = [
      {
        label: 'aot_eager / max-autotune / dynamic=None',
        reason:
          "aot_autograd-based backend ignoring extra kwargs {'mode': 'max-autotune'}"
      }
    ];
    const view = createComparisonView(data);
    const same = view.querySelector(
      'tr[data-row="1"] .tcx-same-run'
    ) as HTMLElement;
    expect(same.textContent).toBe(
      "= aot_eager / max-autotune / dynamic=None: the same run (torch: “aot_autograd-based backend ignoring extra kwargs {'mode': 'max-autotune'}”)"
    );
    expect(view.querySelectorAll('.tcx-same-run')).toHaveLength(1);
  });

  it('says why a row whose document was left out cannot open', () => {
    const view = createComparisonView(output());
    (
      view.querySelector('.tcx-compare-table tr[data-row="3"]') as HTMLElement
    ).click();
    expect(view.querySelector('.tcx-compare-detail')?.textContent).toContain(
      'too big for this output'
    );
  });

  it('fills the Compare tab of a row document from Python: its grid, its row current', () => {
    const rows = output().rows.map(r => ({ ...r, document: null }));
    const root = createExplorer({ ...fixture(), comparison: { rows, row: 2 } });
    (
      root.querySelector('[role=tab][data-tab=compare]') as HTMLButtonElement
    ).click();
    const tab = root.querySelector(
      '[role=tabpanel][data-tab=compare]'
    ) as HTMLElement;
    expect(
      (tab.querySelector('tr.tcx-current') as HTMLElement).dataset.row
    ).toBe('2');
    (tab.querySelector('tr[data-row="0"]') as HTMLElement).click();
    expect(tab.querySelector('.tcx-compare-detail')?.textContent).toBe(
      'inductor / default / dynamic=None: this output does not hold its document'
    );
  });

  it('is listed in the sidebar as a comparison, not as an exploration without compiles', async () => {
    const [found] = await findExplorations([
      { executionCount: 1, outputs: [{ data: { [MIME_TYPE]: output() } }] }
    ]);
    expect([found.label, found.detail]).toEqual([
      '4 configurations compared',
      '1 failed'
    ]);
  });
});

describe('advice check', () => {
  it('reads whether the profile advice held, from a grid and from a row document', () => {
    const check = {
      verdict: 'overhead-bound',
      mode: 'reduce-overhead',
      held: true,
      ratio: 2.5,
      text: 'the advice held',
      baseline: 'a',
      row: 'b'
    };
    expect(
      comparisonGrid({
        schema: 'tcexplore/1',
        kind: 'comparison',
        rows: [],
        advice_check: check
      }).advice?.held
    ).toBe(true);
    expect(
      comparisonGrid({
        schema: 'tcexplore/1',
        kind: 'comparison',
        rows: [],
        advice_check: null
      }).advice
    ).toBeNull();
    const doc = {
      ...fixture(),
      comparison: { row: 0, rows: [], advice_check: check }
    } as TcxDocument;
    expect(documentGrid(doc).advice?.text).toBe('the advice held');
  });
});
