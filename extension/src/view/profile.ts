/** The Profile tab: the step's verdict, the heaviest lines, the kernels on a roofline. */

import {
  count,
  formatBytes,
  microseconds,
  num,
  percent,
  rate,
  tick
} from '../model/format';
import {
  kernelTarget,
  logAxis,
  roofline,
  stepSegments,
  topLines,
  verdictLine
} from '../model/profile';
import { RUN_BEFORE_NOTE, runOf } from '../model/run';
import { Profile, ProfiledKernel, Target } from '../model/types';
import { Context, TabView } from './context';
import { code, el, link, note, svg, table } from './dom';

const STEP_WIDTH = 640;

/** The wall time per step as one bar to scale, split by where it went, on a labelled axis. */
function stepBar(profile: Profile): SVGSVGElement {
  const segments = stepSegments(profile);
  const total = Math.max(profile.step.wall_us, profile.step.kernel_us);
  const chart = svg('svg', {
    class: 'tcx-chart tcx-step-bar',
    viewBox: `0 0 ${STEP_WIDTH} 58`,
    width: STEP_WIDTH,
    role: 'img',
    'aria-label': 'wall time per step, split by where it went'
  });
  let x = 0;
  for (const s of segments) {
    const w = s.fraction * STEP_WIDTH;
    chart.append(
      svg(
        'rect',
        {
          x,
          y: 4,
          width: Math.max(w, 1),
          height: 24,
          class: `tcx-seg tcx-seg-${s.kind}`
        },
        svg(
          'title',
          {},
          `${s.label}: ${microseconds(s.us)} (${percent(s.fraction)})`
        )
      )
    );
    if (w > 70) {
      chart.append(
        svg(
          'text',
          { x: x + 4, y: 21, class: 'tcx-seg-label' },
          `${percent(s.fraction)} ${s.kind}`
        )
      );
    }
    x += w;
  }
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const at = Math.min(f * STEP_WIDTH, STEP_WIDTH - 1);
    chart.append(
      svg('line', { x1: at, x2: at, y1: 28, y2: 34, class: 'tcx-axis' }),
      svg(
        'text',
        {
          x: at,
          y: 48,
          class: 'tcx-chart-value',
          'text-anchor': f === 0 ? 'start' : f === 1 ? 'end' : 'middle'
        },
        microseconds(total * f)
      )
    );
  }
  chart.append(
    svg('line', { x1: 0, x2: STEP_WIDTH, y1: 28, y2: 28, class: 'tcx-axis' })
  );
  return chart;
}

const CHART = {
  width: 560,
  height: 300,
  left: 58,
  bottom: 38,
  top: 10,
  right: 16
};

function rooflineChart(
  profile: Profile,
  pick: (index: number) => void
): Element {
  const r = roofline(profile);
  if (!r.points.length) {
    return note(
      'No kernel has both FLOPs and bytes: nothing to place on the roofline.'
    );
  }
  const c = CHART;
  const xs = r.points.map(p => p.intensity).concat(r.ridge ? [r.ridge] : []);
  const ys = r.points.map(p => p.gflops).concat(r.peak ? [r.peak] : []);
  const x = logAxis(
    xs.flatMap(v => [v / 4, v * 4]),
    c.left,
    c.width - c.right
  );
  const y = logAxis(
    ys.flatMap(v => [v / 4, v * 2]),
    c.height - c.bottom,
    c.top
  );
  const chart = svg('svg', {
    class: 'tcx-chart tcx-roofline',
    viewBox: `0 0 ${c.width} ${c.height}`,
    width: c.width,
    role: 'img',
    'aria-label': 'roofline: achieved GFLOP/s against FLOPs per byte'
  });
  for (const t of x.ticks) {
    chart.append(
      svg('line', {
        x1: t.at,
        x2: t.at,
        y1: c.top,
        y2: c.height - c.bottom,
        class: 'tcx-grid'
      }),
      svg(
        'text',
        {
          x: t.at,
          y: c.height - c.bottom + 14,
          class: 'tcx-chart-value',
          'text-anchor': 'middle'
        },
        tick(t.value)
      )
    );
  }
  for (const t of y.ticks) {
    chart.append(
      svg('line', {
        x1: c.left,
        x2: c.width - c.right,
        y1: t.at,
        y2: t.at,
        class: 'tcx-grid'
      }),
      svg(
        'text',
        {
          x: c.left - 4,
          y: t.at + 4,
          class: 'tcx-chart-value',
          'text-anchor': 'end'
        },
        tick(t.value)
      )
    );
  }
  const mid = (c.top + c.height - c.bottom) / 2;
  chart.append(
    svg(
      'text',
      {
        x: (c.left + c.width) / 2,
        y: c.height - 6,
        class: 'tcx-chart-label',
        'text-anchor': 'middle'
      },
      'arithmetic intensity (FLOPs per byte moved)'
    ),
    svg(
      'text',
      {
        x: 12,
        y: mid,
        class: 'tcx-chart-label',
        'text-anchor': 'middle',
        transform: `rotate(-90 12 ${mid})`
      },
      'achieved GFLOP/s'
    )
  );
  const lo = x.ticks[0].value;
  const hi = x.ticks[x.ticks.length - 1].value;
  const roofEnd = r.ridge ?? hi;
  chart.append(
    svg(
      'line',
      {
        x1: x.place(lo),
        y1: y.place(lo * r.bandwidth),
        x2: x.place(roofEnd),
        y2: y.place(roofEnd * r.bandwidth),
        class: 'tcx-roof'
      },
      svg('title', {}, `memory roof: ${rate(r.bandwidth, 'GB/s')}`)
    )
  );
  if (r.peak && r.ridge) {
    chart.append(
      svg(
        'line',
        {
          x1: x.place(r.ridge),
          y1: y.place(r.peak),
          x2: x.place(hi),
          y2: y.place(r.peak),
          class: 'tcx-roof'
        },
        svg('title', {}, `compute roof: ${rate(r.peak, 'GFLOP/s')}`)
      )
    );
  }
  for (const p of r.points) {
    const dot = svg(
      'circle',
      {
        cx: x.place(p.intensity),
        cy: y.place(p.gflops),
        r: 6,
        class: `tcx-point tcx-bound-${p.kernel.bound ?? 'unknown'}`,
        tabindex: 0,
        'data-kernel': p.kernel.name
      },
      svg(
        'title',
        {},
        `${p.kernel.label ?? p.kernel.name}: ${num(p.intensity)} FLOPs/byte, ${rate(p.gflops, 'GFLOP/s')}, ${rate(p.kernel.achieved_gbps, 'GB/s')}, ${microseconds(p.kernel.time_us)} (${p.kernel.bound ?? '?'}-bound)`
      )
    );
    dot.addEventListener('click', () => pick(p.index));
    dot.addEventListener('keydown', event => {
      if ((event as KeyboardEvent).key === 'Enter') {
        pick(p.index);
      }
    });
    chart.append(dot);
  }
  const legend = el(
    'p',
    { class: 'tcx-muted tcx-legend' },
    ...(['memory', 'compute', 'latency'] as const).flatMap(b => [
      el('span', { class: `tcx-dot tcx-bound-${b}` }),
      ` ${b}-bound  `
    ]),
    r.missing
      ? `· ${r.missing} kernel(s) without FLOPs or bytes are not placed`
      : ''
  );
  return el('div', null, chart, legend);
}

function kernelRows(ctx: Context, profile: Profile): HTMLTableElement {
  const name = (k: ProfiledKernel) => {
    const target = kernelTarget(ctx.doc, k);
    const label = k.label ?? k.name;
    return target
      ? link(label, () => ctx.go(target), 'show its code')
      : code(label);
  };
  const rows: Array<Array<string | HTMLElement>> = [];
  const owners: Array<number | null> = []; // each table row's kernel (null: one launch of the kernel above)
  profile.kernels.forEach((k, index) => {
    rows.push([
      name(k),
      k.kind,
      microseconds(k.time_us),
      percent(k.share),
      count(k.calls),
      microseconds(k.mean_us),
      formatBytes(k.bytes),
      count(k.flops),
      rate(k.achieved_gbps, 'GB/s'),
      rate(k.achieved_gflops, 'GFLOP/s'),
      percent(k.efficiency),
      el(
        'span',
        { class: `tcx-chip tcx-bound-${k.bound ?? 'unknown'}` },
        k.bound ?? '—'
      ),
      k.below_roof?.text ?? '—'
    ]);
    owners.push(index);
    // A kernel launched from several lines of its output code: each launch's own time under the total.
    const sites = k.launch_sites ?? [];
    for (const site of sites.length > 1 ? sites : []) {
      rows.push([
        el(
          'span',
          { class: 'tcx-muted' },
          `↳ launch at line ${site.line ?? '?'} of the output code`
        ),
        '',
        microseconds(site.time_us),
        percent(site.share),
        count(site.calls),
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        ''
      ]);
      owners.push(null);
    }
  });
  const t = table(
    [
      'kernel',
      'kind',
      'time',
      'share',
      'launches',
      'per launch',
      'bytes / launch',
      'FLOPs / launch',
      'bandwidth',
      'compute',
      'of the roof',
      'bound',
      'why below the roof'
    ],
    rows,
    'tcx-kernel-times'
  );
  t.querySelectorAll('tbody tr').forEach((tr, i) => {
    const owner = owners[i];
    if (owner === null) {
      tr.classList.add('tcx-launch-row');
    } else {
      tr.setAttribute('data-index', String(owner));
    }
  });
  return t;
}

export function profileTab(ctx: Context): TabView {
  const profile = ctx.doc.profile;
  if (!profile) {
    return {
      element: el(
        'div',
        { class: 'tcx-profile' },
        note(
          'No profile in this document: explore(..., profile=True), %%tcompile --profile, tcexplore.capture(profile=True) or tcexplore run --profile measures every kernel.'
        )
      )
    };
  }
  const kernels = kernelRows(ctx, profile);
  const pick = (index: number) => {
    kernels
      .querySelectorAll('tr.tcx-active')
      .forEach(tr => tr.classList.remove('tcx-active'));
    const row = kernels.querySelector(`tbody tr[data-index="${index}"]`);
    row?.classList.add('tcx-active');
    row?.scrollIntoView({ block: 'nearest' });
  };
  const lines = topLines(ctx.doc);
  const step = profile.step;
  const figures: Array<[string, string]> = [
    [
      profile.scope === 'run' ? 'wall time over the run' : 'wall time per call',
      `${microseconds(step.wall_us)} (${step.wall_source ?? ''})`
    ],
    [
      'in kernels',
      `${microseconds(step.kernel_us)} (${percent(1 - step.overhead_share)})`
    ],
    [
      'outside kernels',
      `${microseconds(step.overhead_us)} (${percent(step.overhead_share)})`
    ]
  ];
  if (profile.calls?.line) {
    figures.push(['calls of compiled code', profile.calls.line]);
  }
  if (step.timing_wall_us) {
    figures.push([
      "timing samples' median",
      `${microseconds(step.timing_wall_us)} (without the profiler)`
    ]);
  }
  if (typeof step.basis?.synced_us === 'number') {
    figures.push([
      'one call, then a sync',
      `${microseconds(step.basis.synced_us)} (latency, not a loop's cost)`
    ]);
  }
  if (step.basis?.line) {
    figures.unshift(['decided by', step.basis.line]);
  }
  const element = el(
    'div',
    { class: 'tcx-profile' },
    el(
      'h3',
      { class: `tcx-verdict tcx-verdict-${step.verdict}` },
      verdictLine(profile)
    ),
    step.unreliable ? note(step.unreliable, 'tcx-note tcx-warning') : null,
    stepBar(profile),
    runOf(ctx.doc)
      ? el(
          'p',
          null,
          link(
            'Each compiled frame and the eager gaps between them, one step drawn →',
            () => ctx.go({ tab: 'run' })
          )
        )
      : note(RUN_BEFORE_NOTE, 'tcx-muted'),
    el(
      'table',
      { class: 'tcx-table tcx-facts' },
      el(
        'tbody',
        null,
        ...figures.map(([k, v]) =>
          el(
            'tr',
            null,
            el('th', { attrs: { scope: 'row' } }, k),
            el('td', null, v)
          )
        )
      )
    ),
    el(
      'ul',
      { class: 'tcx-advice' },
      ...step.advice.map(a => el('li', null, a))
    ),
    el('h4', null, 'Source lines by time'),
    lines.length
      ? el(
          'ol',
          { class: 'tcx-time-lines' },
          ...lines.map(l =>
            el(
              'li',
              null,
              el('span', {
                class: 'tcx-time-bar',
                attrs: { style: `width: ${(l.relative * 100).toFixed(1)}%` }
              }),
              el(
                'span',
                { class: 'tcx-time-value' },
                `${microseconds(l.us)} · ${percent(l.share)}`
              ),
              ' ',
              l.target
                ? link(l.label, () => ctx.go(l.target as Target))
                : el('span', { class: 'tcx-muted' }, l.label),
              ' ',
              code(l.code)
            )
          )
        )
      : note('No kernel time was attributed to a source line.'),
    el('h4', null, 'Kernels against the roofline'),
    el(
      'p',
      null,
      `Roofs of ${profile.peaks.device ?? 'this machine'}: ${rate(profile.peaks.bandwidth_gbps, 'GB/s')}; ` +
        Object.entries(profile.peaks.gflops)
          .map(([d, v]) => `${d} ${rate(v, 'GFLOP/s')}`)
          .join(', ')
    ),
    el(
      'p',
      { class: 'tcx-muted' },
      `${profile.peaks.how}. Profiled with ${profile.how}; it took ${(profile.cost_s ?? 0).toFixed(2)} s.`
    ),
    rooflineChart(profile, pick),
    kernels
  );
  return {
    element,
    reveal(target) {
      if (target.tab === 'profile' && typeof target.kernel === 'number') {
        pick(target.kernel);
      }
    }
  };
}
