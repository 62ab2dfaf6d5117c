/**
 * A unified diff (`diff -u` format) of two texts, compared line by line through keys;
 * lines are shown as written, context lines from side A. Spelled step for step like
 * tcexplore/docdiff/unified.py.
 */

import { matches } from './align';

export const CONTEXT = 3;
export const MAX_LINES = 2000;

function hunkRange(start: number, length: number): string {
  if (length === 1) {
    return String(start + 1);
  }
  if (length === 0) {
    return `${start},0`;
  }
  return `${start + 1},${length}`;
}

type Op = [string, number, number]; // tag, position in a, position in b

/** The diff, or '' when the keys are equal. */
export function unified(
  aLines: string[],
  bLines: string[],
  aKeys: string[],
  bKeys: string[],
  aName: string,
  bName: string
): string {
  const { found } = matches(aKeys, bKeys);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  for (const [mi, mj] of [...found, [aKeys.length, bKeys.length]]) {
    for (let k = i; k < mi; k++) {
      ops.push(['-', k, j]);
    }
    for (let k = j; k < mj; k++) {
      ops.push(['+', mi, k]);
    }
    if (mi < aKeys.length) {
      ops.push([' ', mi, mj]);
    }
    i = mi + 1;
    j = mj + 1;
  }
  const changed: number[] = [];
  ops.forEach((op, n) => {
    if (op[0] !== ' ') {
      changed.push(n);
    }
  });
  if (!changed.length) {
    return '';
  }
  let out = [`--- ${aName}`, `+++ ${bName}`];
  let n = 0;
  while (n < changed.length) {
    const first = changed[n];
    while (
      n + 1 < changed.length &&
      changed[n + 1] - changed[n] <= 2 * CONTEXT + 1
    ) {
      n++;
    }
    const hunk = ops.slice(
      Math.max(0, first - CONTEXT),
      Math.min(ops.length, changed[n] + CONTEXT + 1)
    );
    const aCount = hunk.filter(op => op[0] !== '+').length;
    const bCount = hunk.filter(op => op[0] !== '-').length;
    out.push(
      `@@ -${hunkRange(hunk[0][1], aCount)} +${hunkRange(hunk[0][2], bCount)} @@`
    );
    for (const [tag, ai, bi] of hunk) {
      out.push(tag + (tag === '+' ? bLines[bi] : aLines[ai]));
    }
    n++;
  }
  if (out.length > MAX_LINES) {
    out = [
      ...out.slice(0, MAX_LINES),
      `… ${out.length - MAX_LINES} more lines (truncated)`
    ];
  }
  return out.join('\n');
}
