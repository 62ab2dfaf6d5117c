/**
 * The kernel diff of two paired compiles, step for step as
 * tcexplore/docdiff/kernels.py: output codes paired by id, their kernels paired by the
 * post-grad nodes they fuse (through the graph diff's renaming), then by normalised text,
 * then by name; each changed pair's unified source diff and fused-node pairs.
 */

import { KernelChange, OutputDiff, orNull } from './difftypes';
import { outputIds, postGradIds } from './diffgraphs';
import { kernelText, text } from './identity';
import { Compile, Kernel } from './types';
import { unified } from './unified';

export function outputs(
  x: Compile,
  y: Compile,
  renames: Map<string, Map<string, string>>
): OutputDiff[] {
  const oa = x.output_codes ?? [];
  const ob = y.output_codes ?? [];
  const idsA = outputIds(x);
  const idsB = outputIds(y);
  const postA = postGradIds(x);
  const entries: OutputDiff[] = [];
  for (const ident of [...idsA, ...idsB.filter(k => !idsA.includes(k))]) {
    const ia = idsA.includes(ident) ? idsA.indexOf(ident) : null;
    const ib = idsB.includes(ident) ? idsB.indexOf(ident) : null;
    const ka = ia !== null ? (oa[ia].kernels ?? []) : [];
    const kb = ib !== null ? (ob[ib].kernels ?? []) : [];
    const graph = ia !== null ? oa[ia].post_grad_graph : null;
    const rename =
      typeof graph === 'number' && graph >= 0 && graph < postA.length
        ? (renames.get(`post:${postA[graph]}`) ?? new Map<string, string>())
        : new Map<string, string>();
    const kernels = pairKernels(ka, kb, rename).map(([i, j]) =>
      kernelEntry(i === null ? null : ka[i], j === null ? null : kb[j], rename)
    );
    entries.push({
      output: ident,
      a: ia,
      b: ib,
      kernels: kernels.filter((k): k is KernelChange => k !== null)
    });
  }
  return entries;
}

function pairKernels(
  ka: Kernel[],
  kb: Kernel[],
  rename: Map<string, string>
): Array<[number | null, number | null]> {
  const partner = new Map<number, number>();
  const taken = new Set<number>();
  ka.forEach((kernel, i) => {
    const mine = new Set(
      (kernel.post_grad_nodes ?? [])
        .filter(n => rename.has(n))
        .map(n => rename.get(n)!)
    );
    let best: number | null = null;
    let bestShared = 0;
    kb.forEach((other, j) => {
      if (taken.has(j) || other.kind !== kernel.kind) {
        return;
      }
      const shared = (other.post_grad_nodes ?? []).filter(n =>
        mine.has(n)
      ).length;
      if (shared > bestShared) {
        best = j;
        bestShared = shared;
      }
    });
    if (best !== null) {
      partner.set(i, best);
      taken.add(best);
    }
  });
  const sames: Array<(p: Kernel, q: Kernel) => boolean> = [
    (p, q) => kernelText(p, rename) === kernelText(q),
    (p, q) => p.name === q.name
  ];
  for (const same of sames) {
    ka.forEach((kernel, i) => {
      if (partner.has(i)) {
        return;
      }
      const j = kb.findIndex(
        (other, k) =>
          !taken.has(k) && other.kind === kernel.kind && same(kernel, other)
      );
      if (j >= 0) {
        partner.set(i, j);
        taken.add(j);
      }
    });
  }
  const out: Array<[number | null, number | null]> = ka.map((_, i) => [
    i,
    partner.get(i) ?? null
  ]);
  kb.forEach((_, j) => {
    if (!taken.has(j)) {
      out.push([null, j]);
    }
  });
  return out;
}

function fused(
  x: Kernel | null,
  y: Kernel | null,
  rename: Map<string, string>
): Array<{ a: string | null; b: string | null }> {
  const theirs = new Set(y?.post_grad_nodes ?? []);
  const used = new Set<string>();
  const out: Array<{ a: string | null; b: string | null }> = [];
  for (const name of x?.post_grad_nodes ?? []) {
    const partner = rename.get(name);
    if (partner !== undefined && theirs.has(partner)) {
      used.add(partner);
      out.push({ a: name, b: partner });
    } else {
      out.push({ a: name, b: null });
    }
  }
  for (const name of y?.post_grad_nodes ?? []) {
    if (!used.has(name)) {
      out.push({ a: null, b: name });
    }
  }
  return out;
}

function kernelEntry(
  x: Kernel | null,
  y: Kernel | null,
  rename: Map<string, string>
): KernelChange | null {
  const textA = x !== null ? kernelText(x, rename) : '';
  const textB = y !== null ? kernelText(y) : '';
  let status: KernelChange['status'];
  const pairs = fused(x, y, rename);
  if (x !== null && y !== null) {
    if (textA === textB && pairs.every(f => f.a !== null && f.b !== null)) {
      return null;
    }
    status = 'changed';
  } else {
    status = x === null ? 'added' : 'removed';
  }
  const diff =
    textA === textB
      ? ''
      : unified(
          x !== null ? text(x.source).split('\n') : [],
          y !== null ? text(y.source).split('\n') : [],
          x !== null ? textA.split('\n') : [],
          y !== null ? textB.split('\n') : [],
          x !== null ? text(x.name) : '/dev/null',
          y !== null ? text(y.name) : '/dev/null'
        );
  return {
    status,
    a: x === null ? null : { name: orNull(x.name), kind: orNull(x.kind) },
    b: y === null ? null : { name: orNull(y.name), kind: orNull(y.kind) },
    source_diff: diff,
    fused_nodes: pairs
  };
}
