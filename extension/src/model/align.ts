/**
 * Sequence alignment: which items of two sequences correspond. Spelled step for step like
 * tcexplore/docdiff/align.py (read its docstring for the why); tests/fixtures/docdiff pins
 * both to one result.
 *
 * 1. The common prefix and suffix match.
 * 2. The middle is aligned by a longest common subsequence preferring the earliest match;
 *    a middle over LCS_CELLS cells is not searched (`approximate`) and falls to 3.
 * 3. In each gap between matches, items are paired from the end of the gap while
 *    `canPair` allows; the rest are removed/added.
 */

export const LCS_CELLS = 1_000_000;

/** [i, j] paired, [i, null] removed, [null, j] added. */
export type Row = [number | null, number | null];

export function matches(
  a: string[],
  b: string[]
): { found: Array<[number, number]>; approximate: boolean } {
  const n = a.length;
  const m = b.length;
  let start = 0;
  while (start < n && start < m && a[start] === b[start]) {
    start++;
  }
  let end = 0;
  while (
    end < n - start &&
    end < m - start &&
    a[n - 1 - end] === b[m - 1 - end]
  ) {
    end++;
  }
  const found: Array<[number, number]> = [];
  for (let i = 0; i < start; i++) {
    found.push([i, i]);
  }
  const rows = n - start - end;
  const cols = m - start - end;
  const approximate = rows * cols > LCS_CELLS;
  if (!approximate) {
    for (const [i, j] of lcs(
      a.slice(start, n - end),
      b.slice(start, m - end)
    )) {
      found.push([start + i, start + j]);
    }
  }
  for (let k = 0; k < end; k++) {
    found.push([n - end + k, m - end + k]);
  }
  return { found, approximate };
}

function lcs(a: string[], b: string[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const table = new Int32Array((n + 1) * width); // table[i * width + j]: LCS length of a[i:], b[j:]
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? table[(i + 1) * width + j + 1] + 1
          : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const found: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      found.push([i, j]);
      i++;
      j++;
    } else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) {
      i++;
    } else {
      j++;
    }
  }
  return found;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let k = from; k < to; k++) {
    out.push(k);
  }
  return out;
}

/** Every index of both sides once, in order; gaps between matches paired from their end. */
export function rows(
  n: number,
  m: number,
  found: Array<[number, number]>,
  canPair: (i: number, j: number) => boolean
): Row[] {
  const out: Row[] = [];
  let prevI = 0;
  let prevJ = 0;
  for (const [i, j] of found) {
    out.push(...gap(range(prevI, i), range(prevJ, j), canPair));
    out.push([i, j]);
    prevI = i + 1;
    prevJ = j + 1;
  }
  out.push(...gap(range(prevI, n), range(prevJ, m), canPair));
  return out;
}

function gap(
  gapA: number[],
  gapB: number[],
  canPair: (i: number, j: number) => boolean
): Row[] {
  const tail: Row[] = [];
  while (
    gapA.length &&
    gapB.length &&
    canPair(gapA[gapA.length - 1], gapB[gapB.length - 1])
  ) {
    tail.unshift([gapA.pop()!, gapB.pop()!]);
  }
  return [
    ...gapA.map((i): Row => [i, null]),
    ...gapB.map((j): Row => [null, j]),
    ...tail
  ];
}
