import { linearAxis, timeAxis } from '../model/axis';
import { compilePicker, runtimeChart, timingVerdict } from '../model/timing';
import { Timing } from '../model/types';
import { runtimeBarChart } from '../view/charts';
import { createExplorer } from '../view/explorer';
import { fixture } from './fixture';

/** The measurement: 7 samples, compiled 1.58× faster by the medians, one compiled call of 581 ms. */
function measured(overrides: Partial<Timing> = {}): Timing {
  return {
    eager: {
      median_ms: 16.1,
      iqr_ms: 1.2,
      q1_ms: 15.6,
      q3_ms: 16.8,
      min_ms: 15.2,
      max_ms: 17.5,
      samples: 7,
      noisy: false,
      inner: 1
    },
    compiled: {
      median_ms: 10.2,
      iqr_ms: 0.8,
      q1_ms: 9.9,
      q3_ms: 10.7,
      min_ms: 9.7,
      max_ms: 581,
      samples: 7,
      noisy: false,
      inner: 1
    },
    compile_s: 3,
    speedup: 16.1 / 10.2,
    speedup_interval: [1.45, 1.7],
    break_even_calls: 508,
    noisy: false,
    budget_s: 0.2,
    device: 'cpu',
    ...overrides
  };
}

function withTiming(timing: Timing) {
  return { ...fixture(), timing };
}

describe('the runtime chart', () => {
  it('draws each median as a bar from 0 whose length on the axis is the median', () => {
    const chart = runtimeChart(withTiming(measured()))!;
    expect(chart.axis.ticks[0]).toEqual({ value: 0, label: '0' });
    expect(chart.axis.title).toBe('time per call (ms)');
    for (const bar of chart.bars) {
      expect(bar.length * chart.axis.max).toBeCloseTo(bar.median, 9);
      expect(bar.iqrAt![0] * chart.axis.max).toBeCloseTo(bar.iqr![0], 9);
      expect(bar.iqrAt![1] * chart.axis.max).toBeCloseTo(bar.iqr![1], 9);
    }
    expect(chart.bars[1].length / chart.bars[0].length).toBeCloseTo(
      10.2 / 16.1,
      9
    );
  });

  it('is scaled by the medians and IQRs: an outlier max is marked, never the scale', () => {
    const chart = runtimeChart(withTiming(measured()))!;
    expect(chart.axis.max).toBeGreaterThanOrEqual(16.8);
    expect(chart.axis.max).toBeLessThan(25);
    expect(chart.bars.map(b => b.maxOffScale)).toEqual([false, true]);
  });

  it('is drawn with rectangles whose widths are the medians on the drawn axis', () => {
    const chart = runtimeChart(withTiming(measured()))!;
    const svg = runtimeBarChart(chart);
    const axisLine = [...svg.querySelectorAll('line.tcx-axis-line')].find(
      l => l.getAttribute('y1') === l.getAttribute('y2')
    )!;
    const pxPerMs =
      (Number(axisLine.getAttribute('x2')) -
        Number(axisLine.getAttribute('x1'))) /
      chart.axis.max;
    const widths = [...svg.querySelectorAll('rect.tcx-bar')].map(r =>
      Number(r.getAttribute('width'))
    );
    expect(widths[0]).toBeCloseTo(16.1 * pxPerMs, 6);
    expect(widths[1]).toBeCloseTo(10.2 * pxPerMs, 6);
    const labels = [...svg.querySelectorAll('text.tcx-tick')].map(
      t => t.textContent
    );
    expect(labels[0]).toBe('0');
    expect(svg.textContent).toContain('time per call (ms)');
    expect(svg.textContent).toContain('7 samples');
    expect(svg.querySelector('.tcx-offscale-label')?.textContent).toBe(
      'max 581 ms'
    );
  });

  it('has round ticks in a unit that suits the values', () => {
    expect(linearAxis(17, 'x').ticks.map(t => t.value)).toEqual([
      0, 5, 10, 15, 20
    ]);
    expect(timeAxis(0.0242, 'time per call').title).toBe('time per call (µs)');
    expect(timeAxis(0.0242, 'time per call').ticks.map(t => t.label)).toEqual([
      '0',
      '5',
      '10',
      '15',
      '20',
      '25'
    ]);
    expect(timeAxis(30_000, 'compile').title).toBe('compile (s)');
  });
});

describe('the timing verdict', () => {
  it("is drawn as Python stored it, busy machine and the machine's figures included", () => {
    const busy = measured({
      machine: {
        busy: true,
        reasons: [
          'other processes used 1.9 of 2 cores while torch runs 2 threads'
        ],
        cores: 2,
        torch_threads: 2,
        load_average: 4.1,
        others_cores: 1.9,
        process_cores: 0.4,
        throttled_share: null,
        window_s: 0.8,
        source: '/proc/stat'
      },
      verdict: {
        severity: 'warning',
        headline:
          'Compiled is 1.58× faster than eager: 10.2 ms vs 16.1 ms per call',
        noise: null,
        busy: 'Busy machine: other processes used 1.9 of 2 cores',
        advice: 'Quiet the machine (stop other jobs) and measure again.',
        measurement: 'steady (both IQRs within 10% of their medians)',
        first_call: 'first call (compile + run)',
        machine:
          'busy: 0.4 cores used by this process, 1.9 by others, of 2, torch threads 2, load average 4.10 over 0.800 s'
      }
    });
    const explorer = createExplorer(withTiming(busy));
    (
      explorer.querySelector('[role=tab][data-tab=timing]') as HTMLButtonElement
    ).click();
    const panel = explorer.querySelector(
      '[role=tabpanel][data-tab=timing]'
    ) as HTMLElement;
    expect(panel.querySelector('.tcx-timing-verdict')!.className).toContain(
      'tcx-warning'
    );
    const text = panel.textContent ?? '';
    expect(text).toContain('Busy machine: other processes used 1.9 of 2 cores');
    expect(text).toContain(
      'busy: 0.4 cores used by this process, 1.9 by others, of 2, torch threads 2, load average 4.10 over 0.800 s'
    );
    expect(text).toContain('steady (both IQRs within 10% of their medians)');
  });

  it('is not decided again for a document saved before it was stored: the tab says so', () => {
    const explorer = createExplorer(withTiming(measured()));
    expect(timingVerdict(withTiming(measured()))).toBeNull();
    (
      explorer.querySelector('[role=tab][data-tab=timing]') as HTMLButtonElement
    ).click();
    const text =
      (
        explorer.querySelector(
          '[role=tabpanel][data-tab=timing]'
        ) as HTMLElement
      ).textContent ?? '';
    expect(text).toContain('saved before tcexplore stored its timing verdict');
    expect(text).not.toContain('faster than eager');
  });
});

describe('the compile-phase picker', () => {
  it("opens on the most expensive compile, totals all of them and says each one's time", () => {
    const doc = fixture();
    doc.compiles[1].phases = [
      {
        name: 'entire_frame_compile',
        start_us: 0,
        duration_ms: 1500,
        children: []
      }
    ];
    const picker = compilePicker(doc);
    expect(picker.picks.map(p => p.index)).toEqual([1, 0]);
    expect(picker.picks.map(p => p.label)).toEqual([
      '0/1 · forward — 1.50 s · no graph',
      '0/0 · forward — 100 ms'
    ]);
    expect(picker.total).toBe(
      '1.60 s over 2 compiles; the slowest, 0/1, took 1.50 s'
    );
    const root = createExplorer(doc);
    (
      root.querySelector('[role=tab][data-tab=timing]') as HTMLButtonElement
    ).click();
    const tab = root.querySelector(
      '[role=tabpanel][data-tab=timing]'
    ) as HTMLElement;
    expect((tab.querySelector('select') as HTMLSelectElement).value).toBe('1');
    expect(tab.textContent).toContain('Compile time: 1.60 s over 2 compiles');
    expect(tab.querySelector('.tcx-timing-verdict')?.textContent).toContain(
      'Compiled is 2.00× faster than eager'
    );
  });
});
