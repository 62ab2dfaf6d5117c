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

/** The block as Python decided it (`not_compiled_groups`, tcexplore/findings/
 * not_compiled_groups.py): its title, whether it opens, the entries grouped by torch's
 * reason; null for a document saved before it was stored (OLD_GROUPS_NOTE). */
export function notCompiledGroups(
  doc: TcxDocument,
  entries: NotCompiled[]
): { title: string; open: boolean; groups: NotCompiled[][] } | null {
  const stored = doc.not_compiled_groups;
  if (!stored || !Array.isArray(stored.groups)) {
    return null;
  }
  return {
    title: stored.title,
    open: stored.open,
    groups: stored.groups.map(g => g.map(i => entries[i]).filter(Boolean))
  };
}

/** Why the block lists no frame: a document saved before the groups were stored. */
export const OLD_GROUPS_NOTE =
  'This document was saved before tcexplore stored its frames not compiled by reason: tcexplore.load() computes them.';
