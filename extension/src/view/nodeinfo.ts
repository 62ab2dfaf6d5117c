/** The details panel of one graph node: what it is, where it came from, where it went. */

import { sourceLabels, where, whereTitle } from '../model/format';
import { GraphNode, Target } from '../model/types';
import { Context } from './context';
import { code, el, link } from './dom';

export function nodeInfo(
  ctx: Context,
  node: GraphNode,
  kernels: Array<{ name: string; target: Target }>
): HTMLElement {
  const meta = node.meta ?? {};
  const shape =
    meta.kind === 'tensor' && Array.isArray(meta.shape)
      ? `${String(meta.dtype ?? '')}[${(meta.shape as unknown[]).join(', ')}]`
      : '';
  const src = node.source;
  return el(
    'div',
    { class: 'tcx-nodeinfo' },
    el('h4', null, code(node.name)),
    el('div', null, `${node.op} `, code(node.target)),
    shape ? el('div', null, 'value: ', code(shape)) : null,
    node.args?.length
      ? el(
          'div',
          null,
          `inputs: ${node.args.slice(0, 12).join(', ')}${node.args.length > 12 ? ' …' : ''}`
        )
      : null,
    node.users?.length
      ? el(
          'div',
          null,
          `users: ${node.users.slice(0, 12).join(', ')}${node.users.length > 12 ? ' …' : ''}`
        )
      : null,
    src && src.file && typeof src.line === 'number'
      ? el(
          'div',
          null,
          'user line: ',
          link(
            where(src, sourceLabels(ctx.doc)),
            () =>
              ctx.go({
                tab: 'source',
                file: src.file as string,
                line: src.line as number
              }),
            whereTitle(src)
          ),
          src.code ? el('pre', { class: 'tcx-snippet' }, src.code) : null
        )
      : null,
    kernels.length
      ? el(
          'div',
          null,
          'kernels: ',
          ...kernels.flatMap((k, i) => [
            i ? ', ' : '',
            link(k.name, () => ctx.go(k.target))
          ])
        )
      : null
  );
}
