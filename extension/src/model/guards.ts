/** The Guards & recompiles tab: per compile, its guards and why it was compiled again. */

import { Compile } from './types';

export interface RecompileRow {
  cached: string;
  guard: string;
  expected: string;
  actual: string;
}

const MISMATCH = /expected\s+(.+?),\s*actual\s+(.+)$/;

/** expected/actual of a failed guard, read from the reason text where the fields are empty. */
export function recompileRows(c: Compile): RecompileRow[][] {
  return c.recompile_reasons.map(group =>
    group.map(r => {
      const parsed = MISMATCH.exec(r.guard ?? '');
      return {
        cached: r.failed_compile_id ?? '',
        guard: r.guard ?? '',
        expected: r.expected ?? parsed?.[1] ?? '',
        actual: r.actual ?? parsed?.[2] ?? ''
      };
    })
  );
}

export function guardTypes(c: Compile): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const g of c.guards) {
    counts.set(g.type, (counts.get(g.type) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}
