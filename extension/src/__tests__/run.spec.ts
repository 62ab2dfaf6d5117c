import { placeSpans, RUN_BEFORE_NOTE } from '../model/run';
import { Profile, Run, RunSpan, TcxDocument } from '../model/types';
import { createExplorer } from '../view/explorer';
import { GO_EVENT } from '../view/links';
import { fixture } from './fixture';

const MODEL = '/home/me/model.py';
const HOSTILE = '<img src=x onerror=alert(1)>';

/**
 * A training loop's run as measure/ stores it (issue 35's field spec): forward compiled
 * twice (0/0, then the recompile 0/1, which is hot), its compiled backward, the resume
 * function after the break at model.py:12, a frame whose name is markup; the break's gap
 * and the time between steps.
 */
function run(): Run {
  const frame = (
    compile_id: string,
    compile: number | null,
    name: string,
    line: number,
    backward: boolean,
    entered: number,
    total_us: number,
    kernel_us: number,
    hot: boolean | null
  ) => ({
    compile_id,
    compile,
    frame: name,
    file: MODEL,
    line,
    backward,
    entered,
    per_step: entered / 20,
    total_us,
    mean_us: total_us / entered,
    kernel_us,
    outside_us: total_us - kernel_us,
    hot
  });
  const span = (
    kind: 'compiled' | 'eager',
    start_us: number,
    end_us: number,
    index: number,
    label: string
  ): RunSpan => ({
    kind,
    start_us,
    end_us,
    frame: kind === 'compiled' ? index : null,
    gap: kind === 'eager' ? index : null,
    label
  });
  return {
    how: 'torch.profiler over 22 calls of the loop body; a step is each entry of its first compiled frame (forward at model.py:10)',
    steps: {
      count: 22,
      basis:
        'each entry of the run’s first compiled frame (forward at model.py:10) starts a step',
      compiled: [0, 1],
      steady: 19
    },
    wall_us: 60000,
    per_step_us: 1500,
    compiled_us: 840,
    eager_us: 660,
    compiled_share: 0.56,
    headline:
      '56% of each step runs compiled code; the graph break at model.py:12 costs 400 µs per step',
    frames: [
      frame('0/1', 1, 'forward', 10, false, 20, 6000, 4000, true),
      frame('0/1', 1, 'forward', 10, true, 20, 8000, 6500, null),
      frame('1/0', null, HOSTILE, 12, false, 20, 2000, 1200, null),
      frame('0/0', 0, 'forward', 10, false, 2, 400, 300, false)
    ],
    gaps: [
      {
        kind: 'graph_break',
        break: 0,
        file: MODEL,
        line: 12,
        label: 'graph break at model.py:12 (Data-dependent branching)',
        count: 20,
        total_us: 8000,
        per_step_us: 400
      },
      {
        kind: 'between_steps',
        break: null,
        file: null,
        line: null,
        label: 'between steps (outside any compiled frame)',
        count: 19,
        total_us: 5200,
        per_step_us: 260
      }
    ],
    timeline: {
      step: 9,
      duration_us: 1500,
      spans: [
        span('compiled', 0, 300, 0, '0/1 forward'),
        span('eager', 300, 700, 0, 'break at model.py:12'),
        span('compiled', 700, 800, 2, `1/0 ${HOSTILE}`),
        span('compiled', 800, 1200, 1, '0/1 backward'),
        span('eager', 1200, 1500, 1, 'between steps')
      ],
      spans_left_out: 0
    }
  };
}

function profile(): Profile {
  return {
    device: 'cpu',
    scope: 'run',
    profiled_calls: 22,
    how: 'torch.profiler',
    kernels: [],
    lines: [],
    peaks: { bandwidth_gbps: 20, gflops: { float32: 100 }, how: 'measured' },
    step: {
      wall_us: 1500,
      kernel_us: 800,
      overhead_us: 700,
      overhead_share: 0.47,
      verdict: 'overhead-bound',
      advice: []
    }
  };
}

function documented(withRun: Run | null = run()): TcxDocument {
  const doc = fixture();
  doc.profile = { ...profile(), ...(withRun ? { run: withRun } : {}) };
  doc.findings = [
    {
      kind: 'graph_break',
      severity: 'warning',
      title: 'Graph break at model.py:12: Data-dependent branching',
      count: 1,
      locations: [{ file: MODEL, line: 12, function: 'forward' }],
      evidence: [
        { tab: 'source', label: 'model.py:12', file: MODEL, line: 12 }
      ],
      advice: null
    }
  ];
  return doc;
}

function tab(root: HTMLElement, id: string): HTMLButtonElement {
  return root.querySelector(`[role=tab][data-tab=${id}]`) as HTMLButtonElement;
}

function panel(root: HTMLElement, id: string): HTMLElement {
  return root.querySelector(`[role=tabpanel][data-tab=${id}]`) as HTMLElement;
}

function openRun(doc = documented()): HTMLElement {
  const root = createExplorer(doc);
  document.body.appendChild(root);
  tab(root, 'run').click();
  return root;
}

function cells(root: HTMLElement, table: string): string[][] {
  return [...panel(root, 'run').querySelectorAll(`.${table} tbody tr`)].map(
    tr => [...tr.querySelectorAll('td')].map(td => td.textContent ?? '')
  );
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('run view', () => {
  it('draws the stored headline, every span label whole, and the tables as stored, in order', () => {
    const root = openRun();
    const view = panel(root, 'run');
    expect(tab(root, 'run').hidden).toBe(false);
    expect(view.querySelector('.tcx-run-headline')!.textContent).toBe(
      run().headline
    );
    const spans = [...view.querySelectorAll('.tcx-span')];
    expect(
      spans.map(s => s.querySelector('title')!.textContent!.split('\n')[0])
    ).toEqual(run().timeline.spans.map(s => s.label));
    expect(spans.map(s => s.querySelector('text')?.textContent)).toEqual(
      run().timeline.spans.map(s => s.label)
    );
    expect(
      spans.map(s => s.getAttribute('class')!.split(' ').slice(-1)[0])
    ).toEqual([
      'tcx-span-compiled',
      'tcx-span-eager',
      'tcx-span-compiled',
      'tcx-span-compiled',
      'tcx-span-eager'
    ]);
    // coloured as the report colours them: the break's gap and the backward set apart
    expect(spans.map(s => s.getAttribute('class'))).toEqual([
      'tcx-span tcx-span-compiled',
      'tcx-span tcx-span-break tcx-span-eager',
      'tcx-span tcx-span-compiled',
      'tcx-span tcx-span-backward tcx-span-compiled',
      'tcx-span tcx-span-eager'
    ]);
    expect(view.querySelector('.tcx-legend')!.textContent).toBe(
      " compiled code   compiled backward   a graph break's eager code   other eager code  · hover a span for its times, click it for its row"
    );
    expect(cells(root, 'tcx-run-frames')).toEqual([
      [
        '0/1',
        'forward',
        'model.py:10',
        '20',
        '1.00',
        '6.00 ms',
        '300 µs',
        '4.00 ms',
        '2.00 ms',
        '—',
        '—',
        'hot'
      ],
      [
        '0/1backward',
        'forward',
        'model.py:10',
        '20',
        '1.00',
        '8.00 ms',
        '400 µs',
        '6.50 ms',
        '1.50 ms',
        '—',
        '—',
        ''
      ],
      [
        '1/0',
        HOSTILE,
        'model.py:12',
        '20',
        '1.00',
        '2.00 ms',
        '100 µs',
        '1.20 ms',
        '800 µs',
        '—',
        '—',
        ''
      ],
      [
        '0/0',
        'forward',
        'model.py:10',
        '2',
        '0.100',
        '400 µs',
        '200 µs',
        '300 µs',
        '100 µs',
        '—',
        '—',
        ''
      ]
    ]);
    expect(cells(root, 'tcx-run-gaps')).toEqual([
      [
        'graph break at model.py:12 (Data-dependent branching)',
        'model.py:12',
        '20',
        '400 µs',
        '26.7%',
        '8.00 ms',
        '—'
      ],
      [
        'between steps (outside any compiled frame)',
        '',
        '19',
        '260 µs',
        '17.3%',
        '5.20 ms',
        '—'
      ]
    ]);
    const facts = view.querySelector('.tcx-facts')!.textContent;
    expect(facts).toContain(run().steps.basis);
    expect(facts).toContain('0, 1');
    expect(facts).toContain('(56.0%)');
    expect(view.textContent).toContain(run().how);
    expect(view.textContent).not.toContain('more spans');
  });

  it('shows a frame named as markup as text, never as markup', () => {
    const root = openRun();
    const view = panel(root, 'run');
    expect(view.querySelector('img')).toBeNull();
    expect(view.querySelectorAll('[onerror]').length).toBe(0);
    const names = [...view.querySelectorAll('.tcx-run-frames code')].map(
      c => c.textContent
    );
    expect(names).toContain(HOSTILE);
    expect(view.textContent).toContain(`1/0 ${HOSTILE}`);
  });

  it('selects the row of a clicked span, a frame or a gap', () => {
    const root = openRun();
    const view = panel(root, 'run');
    const click = (i: number) =>
      view
        .querySelector(`.tcx-span[data-span="${i}"]`)!
        .dispatchEvent(new MouseEvent('click', { bubbles: true }));
    click(2);
    const active = () =>
      [...view.querySelectorAll('tr.tcx-active')].map(tr =>
        tr.getAttribute('data-row')
      );
    expect(active()).toEqual(['frame-2']);
    expect(
      view.querySelector('.tcx-span.tcx-active')!.getAttribute('data-span')
    ).toBe('2');
    click(1);
    expect(active()).toEqual(['gap-0']);
    root.dispatchEvent(
      new CustomEvent(GO_EVENT, { detail: { tab: 'run', frame: 1 } })
    );
    expect(active()).toEqual(['frame-1']);
  });

  it('links a compile to its compile, a break to its site among the findings, a line to Source', () => {
    const root = openRun();
    const view = panel(root, 'run');
    const links = (selector: string) =>
      [...view.querySelectorAll<HTMLElement>(`${selector} .tcx-link`)].map(
        l => l.textContent
      );
    // 1/0 was not captured (compile null): its id is not a link
    expect(links('.tcx-run-frames td:first-child')).toEqual([
      '0/1',
      '0/1',
      '0/0'
    ]);
    (
      view.querySelector(
        '.tcx-run-frames td:first-child .tcx-link'
      ) as HTMLElement
    ).click();
    expect(tab(root, 'guards').getAttribute('aria-selected')).toBe('true');
    expect(
      panel(root, 'guards').querySelector('.tcx-focus, [open]')?.textContent
    ).toContain('0/1');

    tab(root, 'run').click();
    const gap = view.querySelector(
      '.tcx-run-gaps td:first-child .tcx-link'
    ) as HTMLElement;
    expect(gap.textContent).toBe(
      'graph break at model.py:12 (Data-dependent branching)'
    );
    expect(links('.tcx-run-gaps td:first-child')).toHaveLength(1);
    gap.click();
    expect(tab(root, 'overview').getAttribute('aria-selected')).toBe('true');
    const site = panel(root, 'overview').querySelector(
      '.tcx-finding-break.tcx-focus'
    )!;
    expect(site.getAttribute('data-line')).toBe('12');
    expect(site.querySelector('details')!.hasAttribute('open')).toBe(true);

    tab(root, 'run').click();
    (
      view.querySelector(
        '.tcx-run-gaps td:nth-child(2) .tcx-link'
      ) as HTMLElement
    ).click();
    expect(tab(root, 'source').getAttribute('aria-selected')).toBe('true');
    expect(
      panel(root, 'source').querySelector('.tcx-focus')?.textContent
    ).toContain('if h.sum() > 0:');
  });

  it('says how many spans were left out of the drawing', () => {
    const r = run();
    r.timeline.spans_left_out = 12;
    const root = openRun(documented(r));
    expect(panel(root, 'run').textContent).toContain(
      '12 more spans of this step are not drawn'
    );
  });

  it('has no Run tab without profile.run, and says why where a profile exists', () => {
    const bare = fixture();
    delete bare.profile;
    const root = createExplorer(bare);
    expect(tab(root, 'run').hidden).toBe(true);
    expect(root.querySelector('.tcx-absent')!.textContent).toContain(
      'a run view (a profile also times'
    );

    const old = createExplorer(documented(null));
    expect(tab(old, 'run').hidden).toBe(true);
    expect(old.querySelector('.tcx-absent')!.textContent).toContain(
      'a run view (this document was made before tcexplore measured runs)'
    );
    tab(old, 'profile').click();
    expect(panel(old, 'profile').textContent).toContain(RUN_BEFORE_NOTE);
    old.dispatchEvent(new CustomEvent(GO_EVENT, { detail: { tab: 'run' } }));
    expect(panel(old, 'run').textContent).toBe(RUN_BEFORE_NOTE);
    expect(panel(old, 'run').querySelector('svg')).toBeNull();
  });

  it('links the Profile tab to the Run tab where the run was measured', () => {
    const root = createExplorer(documented());
    tab(root, 'profile').click();
    const to = [...panel(root, 'profile').querySelectorAll('.tcx-link')].find(
      l => l.textContent?.startsWith('Each compiled frame')
    ) as HTMLElement;
    to.click();
    expect(tab(root, 'run').getAttribute('aria-selected')).toBe('true');
  });
});

describe('run timeline placement', () => {
  const at = (start: number, end: number, label: string): RunSpan => ({
    kind: 'compiled',
    start_us: start,
    end_us: end,
    frame: 0,
    gap: null,
    label
  });
  const options = { char: 6, gap: 4, lanes: 2 };

  it('puts a label in its bar where it fits, else on the first free lane below, never overlapping', () => {
    const placed = placeSpans(
      [
        at(0, 500, 'wide enough'),
        at(500, 510, 'narrow one'),
        at(510, 520, 'narrow two'),
        at(520, 530, 'narrow three'),
        at(990, 1000, 'at the end')
      ],
      1000,
      1000,
      options
    );
    expect(placed.map(p => p.label?.lane ?? null)).toEqual([0, 1, 2, null, 1]);
    expect(placed[1].x).toBeCloseTo(500);
    expect(placed[1].width).toBeCloseTo(10);
    // a label near the end is moved left to stay in the plot
    expect(placed[4].label!.x + 'at the end'.length * 6).toBeLessThanOrEqual(
      1000
    );
    for (const lane of [1, 2]) {
      const on = placed
        .filter(p => p.label?.lane === lane)
        .map(p => [p.label!.x, p.label!.x + p.span.label.length * 6]);
      on.forEach(([, end], i) =>
        i + 1 < on.length
          ? expect(on[i + 1][0]).toBeGreaterThanOrEqual(end + 4)
          : undefined
      );
    }
  });

  it('gives a span too short to see one pixel', () => {
    const [p] = placeSpans([at(0, 0.001, 'x')], 1000, 100, options);
    expect(p.width).toBe(1);
  });
});
