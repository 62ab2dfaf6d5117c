/**
 * The compile tree (tlparse's stack trie): the call paths that made the compiles, merged
 * where they share their start. Each compile hangs under the frame Dynamo compiled, at the
 * end of the call path torch recorded when it began (`stack`); library frames on the way
 * (runpy, tcexplore's own, torch's wrappers) are left out of the path and counted. A frame
 * entry lists its compiles with what made each one: its restarts after graph breaks, the
 * guard that failed for a recompile, the break a resume function continues. Each compile is
 * one cache entry of the frame's code, kept with its guards. Compiled autograd's compiles of
 * a traced backward hang under the step compile that ran it.
 */

import { libraryFiles } from './breaks';
import { firstLine } from './format';
import { Compile, Location, ResumeOf, TcxDocument } from './types';

export interface TreeCompile {
  index: number;
  id: string;
  status: string;
  guards: number;
  restarts: number;
  restartReason: string | null;
  /** the first failed guard of the cache entries before it (a recompile), if any */
  recompiledBecause: string | null;
  resumeOf: ResumeOf | null;
  hasBytecode: boolean;
  /** what served it from the caches and what a hit could not show (findings/cache.py) */
  cacheHit: string | null;
}

export interface TreeNode {
  /** the frame of the call path (a call site), or the compiled frame itself */
  frame: Location;
  /** library frames left out just above this one */
  folded: number;
  children: TreeNode[];
  /** compiles of this frame that began on this path */
  compiles: TreeCompile[];
  /** the compiled frame's id, when compiles hang here */
  frameId: number | null;
  /** compiled autograd's backward of the step compile this node hangs under (its pass id);
   * `frame` is then the line of the step that ran the backward */
  backwardPass?: number;
}

function key(f: Location): string {
  return JSON.stringify([f.file, f.line, f.function]);
}

function entry(c: Compile, index: number): TreeCompile {
  const restarts = Math.max(0, (c.attempts ?? 1) - 1);
  const failed = c.recompile_reasons.flat()[0];
  return {
    index,
    id: c.id,
    status: c.status,
    guards: c.guards.length,
    restarts,
    restartReason:
      restarts && c.restart_reasons?.length
        ? firstLine(c.restart_reasons[0])
        : null,
    recompiledBecause: failed ? failed.guard : null,
    resumeOf: c.resume_of ?? null,
    hasBytecode: Boolean(c.bytecode),
    cacheHit: c.cache_hit?.note ?? null
  };
}

/** A compile of compiled autograd's traced backward hangs under the step that ran it, as
 * the document links them (`compiled_autograd[].step`), not at the end of its own stack
 * (the step's backward line, then torch's autograd engine and a generated `forward`). */
function asBackward(
  doc: TcxDocument,
  c: Compile,
  ci: number,
  byCompile: Map<string, TreeNode>
): boolean {
  const pass = (doc.compiled_autograd ?? []).find(
    p => p.id === c.compiled_autograd_id
  );
  const step = pass?.step ? byCompile.get(pass.step) : undefined;
  if (!pass || !step) {
    return false;
  }
  let node = step.children.find(n => n.backwardPass === pass.id);
  if (!node) {
    node = {
      frame: pass.call ?? c.frame ?? {},
      folded: 0,
      children: [],
      compiles: [],
      frameId: c.frame_id ?? null,
      backwardPass: pass.id
    };
    step.children.push(node);
  }
  node.compiles.push(entry(c, ci));
  return true;
}

/** The roots of the compile tree, in the order the compiles began. */
export function compileTree(doc: TcxDocument): TreeNode[] {
  const roots: TreeNode[] = [];
  const index = new Map<string, TreeNode>();
  const byCompile = new Map<string, TreeNode>();
  const library = libraryFiles(doc);
  doc.compiles.forEach((c, ci) => {
    if (
      typeof c.compiled_autograd_id === 'number' &&
      asBackward(doc, c, ci, byCompile)
    ) {
      return;
    }
    const stack = c.stack?.length ? c.stack : c.frame ? [c.frame] : [];
    if (!stack.length) {
      return;
    }
    let siblings = roots;
    let path = '';
    let folded = 0;
    stack.forEach((f, depth) => {
      const last = depth === stack.length - 1;
      if (!last && typeof f.file === 'string' && library.has(f.file)) {
        folded += 1;
        return;
      }
      // the compiled frame is keyed by its frame id too: torch compiles two code objects
      // at one location (a function defined again) as two frames, never one
      path += key(f) + (last ? `#${c.frame_id ?? ''}` : '');
      let node = index.get(path);
      if (!node) {
        node = { frame: f, folded, children: [], compiles: [], frameId: null };
        index.set(path, node);
        siblings.push(node);
      }
      folded = 0;
      if (last) {
        node.compiles.push(entry(c, ci));
        node.frameId = c.frame_id ?? null;
        byCompile.set(c.id, node);
      }
      siblings = node.children;
    });
  });
  return roots;
}

/** Per compiled frame (by frame id): how many compiles, i.e. cache entries, it has in all. */
export function compilesPerFrame(doc: TcxDocument): Map<number, number> {
  const counts = new Map<number, number>();
  for (const c of doc.compiles) {
    if (typeof c.frame_id === 'number') {
      counts.set(c.frame_id, (counts.get(c.frame_id) ?? 0) + 1);
    }
  }
  return counts;
}
