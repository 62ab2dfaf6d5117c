/**
 * The Overview's compiles as tlparse's stack trie: the call paths that compiled, each
 * compiled frame with its compiles (status, guards, caches, restarts, why it recompiled,
 * the break it continues), each linked to Guards & recompiles and Bytecode.
 */

import { resumeLabel } from '../model/breaks';
import {
  compilesPerFrame,
  compileTree,
  TreeCompile,
  TreeNode
} from '../model/compiletree';
import {
  plural,
  SourceLabels,
  sourceLabels,
  where,
  whereTitle
} from '../model/format';
import { Context } from './context';
import { code, el, link } from './dom';

function treeCompile(ctx: Context, c: TreeCompile): HTMLElement {
  const labels = sourceLabels(ctx.doc);
  const continued = c.resumeOf
    ? ctx.doc.graph_breaks[c.resumeOf.graph_break]
    : undefined;
  return el(
    'li',
    { class: 'tcx-tree-compile', attrs: { 'data-compile': c.id } },
    link(
      c.id,
      () => ctx.go({ tab: 'guards', compile: c.index }),
      `compile ${c.id} in Guards & recompiles`
    ),
    ' ',
    el(
      'span',
      { class: `tcx-status tcx-status-${c.status}`, title: c.cacheHit ?? '' },
      c.status
    ),
    ' ',
    el('span', { class: 'tcx-muted' }, plural(c.guards, 'guard')),
    c.cacheHit
      ? el(
          'span',
          { class: 'tcx-muted', title: c.cacheHit },
          ' · served from the caches'
        )
      : null,
    c.restarts
      ? el(
          'span',
          { class: 'tcx-tree-restart', title: c.restartReason ?? '' },
          ` · restarted ×${c.restarts}${c.restartReason ? `: ${c.restartReason}` : ''}`
        )
      : null,
    c.recompiledBecause
      ? el(
          'span',
          { class: 'tcx-tree-recompile' },
          ' · recompiled: ',
          code(c.recompiledBecause)
        )
      : null,
    continued
      ? el(
          'span',
          { class: 'tcx-muted' },
          ` · continues the break at ${where(continued, labels)}${c.resumeOf?.compile_id ? ` (${c.resumeOf.compile_id})` : ''}`
        )
      : null,
    c.hasBytecode
      ? el(
          'span',
          null,
          ' · ',
          link(
            'bytecode',
            () => ctx.go({ tab: 'bytecode', compile: c.index }),
            `original and modified bytecode of ${c.id}`
          )
        )
      : null
  );
}

function treeNode(
  ctx: Context,
  node: TreeNode,
  perFrame: Map<number, number>,
  labels: SourceLabels
): HTMLElement {
  const f = node.frame;
  const all = node.frameId === null ? 0 : (perFrame.get(node.frameId) ?? 0);
  return el(
    'li',
    { class: node.compiles.length ? 'tcx-tree-frame' : 'tcx-tree-call' },
    node.folded
      ? el(
          'span',
          { class: 'tcx-muted tcx-tree-folded' },
          `(${plural(node.folded, 'library frame')}) `
        )
      : null,
    node.backwardPass !== undefined
      ? el(
          'span',
          { class: 'tcx-tree-backward', title: whereTitle(f) },
          el('strong', null, 'backward'),
          ` traced by compiled autograd (!${node.backwardPass}), run by `,
          el('span', { class: 'tcx-muted' }, where(f, labels)),
          f.code ? ': ' : null,
          f.code ? code(f.code) : null
        )
      : el(
          'span',
          {
            // a resume function Dynamo generated is named in the user's words (Python's
            // resume_labels); torch's own name for it stays in the tooltip, as evidence
            title: resumeLabel(ctx.doc, f.function)
              ? `${whereTitle(f)}\nDynamo's resume function: ${f.function}`
              : whereTitle(f)
          },
          el(
            'strong',
            null,
            resumeLabel(ctx.doc, f.function) ?? f.function ?? '?'
          ),
          ' ',
          el('span', { class: 'tcx-muted' }, where(f, labels))
        ),
    node.compiles.length
      ? el(
          'div',
          { class: 'tcx-muted tcx-tree-entries' },
          `frame ${node.frameId ?? '?'}: `,
          all > node.compiles.length
            ? `${plural(node.compiles.length, 'compile')} on this path, ${all} in all`
            : plural(node.compiles.length, 'compile')
        )
      : null,
    node.compiles.length
      ? el(
          'ul',
          { class: 'tcx-tree-compiles' },
          ...node.compiles.map(c => treeCompile(ctx, c))
        )
      : null,
    node.children.length
      ? el(
          'ul',
          { class: 'tcx-tree' },
          ...node.children.map(n => treeNode(ctx, n, perFrame, labels))
        )
      : null
  );
}

/** The compiles as tlparse's stack trie: call paths, then each compiled frame's compiles. */
export function compileTreeView(
  ctx: Context,
  labels: SourceLabels
): HTMLElement {
  const perFrame = compilesPerFrame(ctx.doc);
  return el(
    'ul',
    { class: 'tcx-tree tcx-compile-tree' },
    ...compileTree(ctx.doc).map(n => treeNode(ctx, n, perFrame, labels))
  );
}
