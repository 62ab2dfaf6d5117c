import {
  kernelTarget,
  kernelTimes,
  launchTimes,
  logAxis,
  roofline,
  stepSegments,
  timeLabel,
  topLines
} from '../model/profile';
import { Profile, TcxDocument } from '../model/types';
import { fixture } from './fixture';
import { createExplorer } from '../view/explorer';

function profiled(): TcxDocument {
  const doc = fixture();
  const kernel = (
    name: string,
    kind: string,
    time_us: number,
    bound: 'memory' | 'compute' | 'latency',
    flops: number | null,
    nbytes: number
  ) => ({
    name,
    compile: 0,
    output: 0,
    kind,
    time_us,
    calls: 1,
    mean_us: time_us,
    share: time_us / 1000,
    bytes: nbytes,
    flops,
    achieved_gbps: nbytes / time_us / 1e3,
    achieved_gflops: flops ? flops / time_us / 1e3 : null,
    bound
  });
  const profile: Profile = {
    device: 'cpu',
    scope: 'call',
    profiled_calls: 10,
    how: 'torch.profiler',
    kernels: [
      kernel('extern_kernels.mm', 'extern', 600, 'compute', 2e9, 1.2e7),
      kernel('cpp_fused_add_0', 'cpp', 300, 'memory', 1e6, 8e6),
      kernel('cpp_fused_sum_1', 'cpp', 20, 'latency', null, 64)
    ],
    lines: [
      {
        file: '/tmp/ipykernel_1/123.py',
        line: 3,
        code: 'y = x @ w',
        time_us: 600,
        share: 0.6,
        kernels: ['extern_kernels.mm']
      },
      {
        file: '/work/model.py',
        line: 9,
        code: 'z = y + 1',
        time_us: 300,
        share: 0.3
      },
      { file: null, line: null, code: null, time_us: 20, share: 0.02 }
    ],
    peaks: { bandwidth_gbps: 20, gflops: { float32: 100 }, how: 'measured' },
    step: {
      wall_us: 1000,
      kernel_us: 920,
      overhead_us: 80,
      overhead_share: 0.08,
      bound_us: { compute: 600, memory: 300, latency: 20 },
      verdict: 'compute-bound',
      advice: ['max-autotune']
    }
  };
  return {
    ...doc,
    profile,
    explore: {
      compile_kwargs: {},
      device: 'cpu',
      error: null,
      source_labels: { '/tmp/ipykernel_1/123.py': 'cell [4]' }
    }
  } as TcxDocument;
}

describe('profile', () => {
  it('splits the wall time to scale: segments add up to the wall time', () => {
    const segments = stepSegments(profiled().profile!);
    expect(segments.map(s => s.kind)).toEqual([
      'compute',
      'memory',
      'latency',
      'overhead'
    ]);
    expect(segments.reduce((sum, s) => sum + s.fraction, 0)).toBeCloseTo(1);
    expect(segments[0].fraction).toBeCloseTo(0.6);
  });

  it('places kernels with FLOPs and bytes on the roofline, the ridge at peak / bandwidth', () => {
    const r = roofline(profiled().profile!);
    expect(r.points.map(p => p.kernel.name)).toEqual([
      'extern_kernels.mm',
      'cpp_fused_add_0'
    ]);
    expect(r.missing).toBe(1);
    expect(r.ridge).toBeCloseTo(5);
    expect(r.points[0].intensity).toBeCloseTo(2e9 / 1.2e7);
  });

  it('draws a log axis with a tick per decade, in order', () => {
    const axis = logAxis([0.3, 40], 0, 300);
    expect(axis.ticks.map(t => t.value)).toEqual([0.1, 1, 10, 100]);
    expect(axis.place(0.1)).toBeCloseTo(0);
    expect(axis.place(100)).toBeCloseTo(300);
    expect(axis.place(10) - axis.place(1)).toBeCloseTo(100);
  });

  it('labels cell lines as cells, links lines to the Source tab and keeps the unattributed time', () => {
    const lines = topLines(profiled());
    expect(lines[0].label).toBe('cell [4], line 3');
    expect(lines[0].target).toEqual({
      tab: 'source',
      file: '/tmp/ipykernel_1/123.py',
      line: 3
    });
    expect(lines[1].label).toBe('model.py:9');
    expect(lines[2].target).toBeUndefined();
    expect(lines[1].relative).toBeCloseTo(0.5);
  });

  it('links an extern to Fusion and a generated kernel to its code', () => {
    const doc = profiled();
    expect(kernelTarget(doc, doc.profile!.kernels[0])?.tab).toBe('fusion');
    expect(kernelTarget(doc, doc.profile!.kernels[1])).toEqual({
      tab: 'code',
      compile: 0,
      output: 0,
      kernel: 'cpp_fused_add_0'
    });
  });

  it('draws the figures the verdict used as stored, first, and a synced call apart', () => {
    const doc = profiled();
    const line =
      'back to back (5 batches of 50 calls): the host issues a call in 31 µs and the GPU runs its kernels in 130 µs, so the GPU does not wait for the CPU';
    doc.profile!.step.basis = {
      rule: 'loop',
      threshold: 0.5,
      calls: 50,
      batches: 5,
      host_us: 31,
      loop_us: 131,
      synced_us: 205,
      device_us: 130,
      gpu_waits: false,
      line
    };
    const root = createExplorer(doc);
    (
      root.querySelector('[role=tab][data-tab=profile]') as HTMLButtonElement
    ).click();
    const rows = [
      ...root.querySelectorAll(
        '[role=tabpanel][data-tab=profile] .tcx-facts tr'
      )
    ].map(tr => [
      tr.querySelector('th')!.textContent,
      tr.querySelector('td')!.textContent
    ]);
    expect(rows[0]).toEqual(['decided by', line]);
    expect(rows).toContainEqual([
      'one call, then a sync',
      "205 µs (latency, not a loop's cost)"
    ]);
  });

  it('gives each call of a repeated extern its own time, and a kernel launched from two lines each launch', () => {
    const doc = profiled();
    const entry = (
      name: string,
      kind: string,
      nodes: string[],
      lines: number[]
    ) => ({
      name,
      kind,
      source: '',
      aten_ops: [],
      post_grad_nodes: nodes,
      user_lines: [],
      mapping: 'provenance',
      launch_sites: lines.map((line, i) => ({
        line,
        post_grad_nodes: nodes.length === lines.length ? [nodes[i]] : nodes
      }))
    });
    const output = doc.compiles[0].output_codes[0];
    output.kernels = [
      entry('cpp_fused_relu_0', 'cpp', ['relu', 'relu_1'], [92, 102]),
      entry('extern_kernels.mm', 'extern', ['mm'], [85]),
      entry('extern_kernels.mm', 'extern', ['mm_1'], [96]),
      entry('extern_kernels.mm', 'extern', ['mm_2'], [106])
    ] as typeof output.kernels;
    const row = (
      kernel: number,
      label: string,
      time_us: number,
      sites: Array<[number, number]>
    ) => ({
      ...doc.profile!.kernels[0],
      name: output.kernels[kernel].name,
      label,
      kernel,
      time_us,
      share: time_us / 1000,
      calls: sites.length,
      launch_sites: sites.map(([line, us]) => ({
        line,
        time_us: us,
        calls: 1,
        share: us / 1000
      }))
    });
    doc.profile!.kernels = [
      row(1, 'extern_kernels.mm#1', 100, [[85, 100]]),
      row(2, 'extern_kernels.mm#2', 60, [[96, 60]]),
      row(3, 'extern_kernels.mm#3', 30, [[106, 30]]),
      row(0, 'cpp_fused_relu_0', 50, [
        [92, 20],
        [102, 30]
      ])
    ];
    const times = kernelTimes(doc, 0, 0);
    expect([1, 2, 3].map(i => timeLabel(times.get(i)))).toEqual([
      '100 µs · 10.0%',
      '60.0 µs · 6.0%',
      '30.0 µs · 3.0%'
    ]);
    expect(timeLabel(times.get(0))).toBe('50.0 µs · 5.0% · 2 launches');
    expect(launchTimes(output.kernels[0], times.get(0))).toEqual([
      { label: 'line 92', nodes: ['relu'], time: '20.0 µs · 2.0%' },
      { label: 'line 102', nodes: ['relu_1'], time: '30.0 µs · 3.0%' }
    ]);
    expect(launchTimes(output.kernels[1], times.get(1))).toEqual([]);
    expect(kernelTarget(doc, doc.profile!.kernels[1])).toEqual({
      tab: 'fusion',
      compile: 0,
      output: 0,
      kernel: 'extern_kernels.mm',
      index: 2
    });
    // a row written before rows named their entry held every call of its name: no entry gets it
    doc.profile!.kernels = doc.profile!.kernels.map(
      ({ kernel, ...rest }) => rest
    );
    expect([...kernelTimes(doc, 0, 0).keys()]).toEqual([0]);
  });
});
