/**
 * The guard diff of two paired compiles, step for step as
 * tcexplore/docdiff/guards.py: guards compared by their keys as multisets, those only in
 * b added, those only in a removed.
 */

import { GuardView, orNull } from './difftypes';
import { guardKey } from './identity';
import { Guard } from './types';

function guardView(guard: Guard): GuardView {
  return {
    type: orNull(guard.type),
    source: orNull(guard.source),
    expression: orNull(guard.expression),
    user_code: orNull(guard.user_code)
  };
}

function onlyIn(mine: Guard[], theirs: Guard[]): GuardView[] {
  const counts = new Map<string, number>();
  for (const guard of theirs) {
    const key = guardKey(guard);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const left: GuardView[] = [];
  for (const guard of mine) {
    const key = guardKey(guard);
    if ((counts.get(key) ?? 0) > 0) {
      counts.set(key, counts.get(key)! - 1);
    } else {
      left.push(guardView(guard));
    }
  }
  return left;
}

export function guards(
  ga: Guard[],
  gb: Guard[]
): { added: GuardView[]; removed: GuardView[] } {
  return { added: onlyIn(gb, ga), removed: onlyIn(ga, gb) };
}
