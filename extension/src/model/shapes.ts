/**
 * The Shapes tab: each size that became dynamic, in the user's terms, with the lines that
 * guard or specialize it: read from the document's dynamic_shape findings (decided in
 * tcexplore/findings/dynamic_shape.py), never re-derived here.
 */

import { ShapeInfo, TcxDocument } from './types';

export interface ShapeEntry extends ShapeInfo {
  /** the finding's title and advice, as the Overview shows them */
  title: string;
  advice: string | null;
}

export function shapeEntries(doc: TcxDocument): ShapeEntry[] {
  return (doc.findings ?? [])
    .filter(
      f =>
        f.kind === 'dynamic_shape' && f.shape && Array.isArray(f.shape.guards)
    )
    .map(f => ({
      ...(f.shape as ShapeInfo),
      title: f.title,
      advice: f.advice ?? null
    }));
}

export function shapeRows(doc: TcxDocument): ShapeInfo[] {
  return shapeEntries(doc);
}

/** "changed from 8 to 16", "unbacked", or "dynamic from the first compile". */
export function whyDynamic(s: ShapeInfo): string {
  if (s.changed) {
    return `changed from ${s.changed.from} to ${s.changed.to}`;
  }
  return s.unbacked
    ? 'unbacked (a value read from a tensor)'
    : 'dynamic from the first compile';
}

type Guard = ShapeInfo['guards'][number];

/** What a guarding line does to the size, as stored: a runtime assert names the wrapper's check. */
export function guardRole(g: Guard): string {
  if (g.kind === 'specialized') {
    return 'specializes it';
  }
  if (g.kind === 'runtime_assert') {
    return g.check
      ? `runtime assert: ${g.check.output ?? 'output'} code line ${g.check.line}`
      : 'runtime assert';
  }
  return 'guards it';
}
