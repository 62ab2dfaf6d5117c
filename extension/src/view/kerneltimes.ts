/**
 * The Profile tab's kernel table: each kernel's time, launches, bytes, FLOPs, bandwidth and
 * compute against the roofs, and what bounds it; under a kernel launched from several lines
 * of its output code, each launch's own time. A kernel's row is found by its index.
 */

import {
  count,
  formatBytes,
  microseconds,
  percent,
  rate
} from '../model/format';
import { kernelTarget } from '../model/profile';
import { Profile, ProfiledKernel, ProfiledLaunch } from '../model/types';
import { Context } from './context';
import { code, el, link, table } from './dom';

type Cells = Array<string | HTMLElement>;

function kernelCells(ctx: Context, k: ProfiledKernel): Cells {
  const target = kernelTarget(ctx.doc, k);
  const label = k.label ?? k.name;
  return [
    target ? link(label, () => ctx.go(target), 'show its code') : code(label),
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
  ];
}

function launchCells(site: ProfiledLaunch): Cells {
  return [
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
  ];
}

export function kernelRows(ctx: Context, profile: Profile): HTMLTableElement {
  const rows: Cells[] = [];
  const owners: Array<number | null> = []; // each table row's kernel (null: one launch of the kernel above)
  profile.kernels.forEach((k, index) => {
    rows.push(kernelCells(ctx, k));
    owners.push(index);
    // A kernel launched from several lines of its output code: each launch's own time under the total.
    const sites = k.launch_sites ?? [];
    for (const site of sites.length > 1 ? sites : []) {
      rows.push(launchCells(site));
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
