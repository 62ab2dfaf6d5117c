/**
 * Which parts of a cache key changed between two runs of a compile, step for step as
 * tcexplore/docdiff/cache_keys.py: each cache event's key components (`key_components`, parsed
 * at capture from torch's "[hash] name: value" lines) compared by name, one change per
 * component whose hash differs: the hash is what enters the key (a value printed with an
 * address, `<function ... at 0x7f...>`, differs from run to run where the hash does not). A document saved before they were parsed has none:
 * its cache keys are not compared (tcexplore.load() in Python parses them).
 */

import { Compile } from './types';

const MAX_CHANGES = 12;
const NAMES: Array<[string, string]> = [
  ['fx_graph', 'FX graph'],
  ['aotautograd', 'AOTAutograd']
];

/** name -> [hash, value]: the hash enters the key (and tells apart values cut short). */
function components(
  record: Compile,
  cache: string
): Map<string, [string, string]> | null {
  for (const entry of record.cache ?? []) {
    if (entry.cache === cache && Array.isArray(entry.key_components)) {
      return new Map(
        entry.key_components.map(
          c => [c.name, [c.hash, c.value]] as [string, [string, string]]
        )
      );
    }
  }
  return null;
}

export function cacheKeyChanges(
  x: Compile,
  y: Compile
): Array<{ field: string; a: unknown; b: unknown }> {
  const out: Array<{ field: string; a: unknown; b: unknown }> = [];
  for (const [cache, name] of NAMES) {
    const a = components(x, cache);
    const b = components(y, cache);
    if (!a || !b) {
      continue;
    }
    const names = [...new Set([...a.keys(), ...b.keys()])].filter(
      n => a.get(n)?.[0] !== b.get(n)?.[0]
    );
    for (const component of names.slice(0, MAX_CHANGES)) {
      out.push({
        field: `${name} cache key: ${component}`,
        a: a.get(component)?.[1] ?? null,
        b: b.get(component)?.[1] ?? null
      });
    }
  }
  return out;
}
