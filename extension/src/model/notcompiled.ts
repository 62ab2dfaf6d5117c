/** Frames Dynamo ran without compiled code (the document's `not_compiled`): the Overview's
 * table. What the Timing verdict says when nothing was compiled is Python's (the stored
 * verdict). */

import { NotCompiled, TcxDocument } from './types';

/** The document's entries, each field checked (a document from an older tcexplore has none). */
export function notCompiled(doc: TcxDocument): NotCompiled[] {
  const entries = Array.isArray(doc.not_compiled) ? doc.not_compiled : [];
  return entries
    .filter(e => e && typeof e === 'object')
    .map(e => ({
      function: String(e.function ?? '?'),
      file: String(e.file ?? ''),
      line: typeof e.line === 'number' ? e.line : null,
      category: e.category,
      reason: String(e.reason ?? ''),
      advice: String(e.advice ?? '')
    }));
}

/** Entries grouped by (category, reason, advice), in the order torch first gave them. */
export function reasonGroups(entries: NotCompiled[]): NotCompiled[][] {
  const groups = new Map<string, NotCompiled[]>();
  for (const e of entries) {
    const key = JSON.stringify([e.category, e.reason, e.advice]);
    const group = groups.get(key);
    if (group) {
      group.push(e);
    } else {
      groups.set(key, [e]);
    }
  }
  return [...groups.values()];
}

/** No graph was compiled (a compile record without a graph compiled nothing). */
export function nothingCompiled(doc: TcxDocument): boolean {
  const graphs = doc.summary?.graphs;
  return typeof graphs === 'number' ? graphs === 0 : doc.compiles.length === 0;
}
