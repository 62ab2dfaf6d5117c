/**
 * The Guards & recompiles tab: first each recompile, named by the compile it caused, with
 * the guards of cached compiles that failed (expected, actual); then every compile's guards.
 */

import { plural } from './format';
import { Compile, Location, UserLine } from './types';

export interface RecompileRow {
  /** the cached compile whose guard failed, so that it could not be reused */
  cached: string;
  /** its index in the document's compiles, or -1 */
  cachedIndex: number;
  guard: string;
  expected: string;
  actual: string;
  userCode: string;
  userLocation: Location | null;
  /** the user's line Python chose for it (findings/guard_lines.py); undefined in older documents */
  userLine?: UserLine | null;
}

export interface RecompileEntry {
  /** the index of the compile the recompile made */
  compile: number;
  /** "Recompile 5/1 of scale(): tensor 't' size mismatch at index 0. expected 8, actual 6" */
  title: string;
  rows: RecompileRow[];
}

/** The failed guards behind a compile, with expected/actual as capture read them from
 * torch's reason (tcexplore/capture/parsers/recompiles.py), empty where it names none. */
export function recompileRows(
  c: Compile,
  compiles: Compile[] = []
): RecompileRow[] {
  return (Array.isArray(c.recompile_reasons) ? c.recompile_reasons : [])
    .flat()
    .map(r => {
      const cached = r.failed_compile_id ?? '';
      return {
        cached,
        cachedIndex: compiles.findIndex(other => other.id === cached),
        guard: r.guard ?? '',
        expected: r.expected ?? '',
        actual: r.actual ?? '',
        userCode: r.user_code ?? '',
        userLocation: r.user_location ?? null,
        userLine: r.user_line
      };
    });
}

/** `forward()`; a resume function as Python named it for the user (`frame.shown_name`). */
function frameName(c: Compile): string {
  const fn = c.frame?.function ?? '?';
  const shown = c.frame?.shown_name;
  return shown && shown !== fn ? shown : `${fn}()`;
}

/** Every recompile of the document, in the order the compiles happened. */
export function recompiles(compiles: Compile[]): RecompileEntry[] {
  const out: RecompileEntry[] = [];
  compiles.forEach((c, compile) => {
    const rows = recompileRows(c, compiles);
    if (rows.length) {
      const more =
        rows.length > 1
          ? ` (and ${plural(rows.length - 1, 'more failed guard')})`
          : '';
      out.push({
        compile,
        title: `Recompile ${c.id} of ${frameName(c)}: ${rows[0].guard || 'a guard failed'}${more}`,
        rows
      });
    }
  });
  return out;
}

export function guardTypes(c: Compile): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const g of c.guards) {
    counts.set(g.type, (counts.get(g.type) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

/** "7 guards: ID_MATCH ×3, LAMBDA_GUARD ×1" */
export function guardSummary(c: Compile): string {
  const types = guardTypes(c);
  return `${plural(c.guards.length, 'guard')}${types.length ? ': ' + types.map(([t, n]) => `${t} ×${n}`).join(', ') : ''}`;
}
