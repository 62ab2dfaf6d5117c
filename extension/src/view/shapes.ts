import { SourceLabels, sourceLabels, where, whereTitle } from '../model/format';
import {
  guardRole,
  ShapeEntry,
  shapeEntries,
  whyDynamic
} from '../model/shapes';
import { Location } from '../model/types';
import { Context, TabView } from './context';
import { Child, code, el, link, table } from './dom';

/** A line of the user's code, linked to Source where the document names its file. */
function lineLink(ctx: Context, loc: Location, labels: SourceLabels): Child {
  return loc.file && typeof loc.line === 'number'
    ? link(
        where(loc, labels),
        () =>
          ctx.go({
            tab: 'source',
            file: loc.file as string,
            line: loc.line as number
          }),
        whereTitle(loc)
      )
    : where(loc, labels);
}

/** One dynamic size: why it is dynamic, the line that made it, its compile, the lines guarding it. */
function shapeBlock(
  ctx: Context,
  s: ShapeEntry,
  labels: SourceLabels
): HTMLElement {
  const compile = ctx.doc.compiles.findIndex(c => c.id === s.compile);
  const rows = s.guards.map(g => [
    lineLink(ctx, g, labels),
    code(g.expr),
    guardRole(g)
  ]);
  const made = s.made_at;
  return el(
    'section',
    { class: 'tcx-shape' },
    el(
      'h4',
      null,
      code(s.name),
      s.name === s.symbol
        ? ` (range ${s.range})`
        : ` (${s.symbol}, range ${s.range})`
    ),
    el(
      'p',
      null,
      `Why dynamic: ${whyDynamic(s)}; `,
      ...(made
        ? [
            'made by ',
            lineLink(ctx, made, labels),
            made.code ? ': ' : null,
            made.code ? code(made.code) : null,
            '; '
          ]
        : []),
      compile >= 0
        ? link(
            `compile ${s.compile}`,
            () => ctx.go({ tab: 'guards', compile }),
            `compile ${s.compile} in Guards & recompiles`
          )
        : `compile ${s.compile}`
    ),
    rows.length
      ? table(['line', "torch's expression, in your terms", ''], rows)
      : el(
          'p',
          { class: 'tcx-muted' },
          'No line of your code guards this size.'
        ),
    s.advice ? el('p', { class: 'tcx-hint' }, 'What to do: ', s.advice) : null
  );
}

/** The Shapes tab: one block per dynamic size, its guarding lines linked to Source. */
export function shapesTab(ctx: Context): TabView {
  const labels = sourceLabels(ctx.doc);
  return {
    element: el(
      'div',
      { class: 'tcx-shapes' },
      el(
        'p',
        { class: 'tcx-muted' },
        'Sizes torch.compile treats as symbols: when each became dynamic (an unbacked one: the line that read it from a tensor), and the lines of your code whose conditions the compiled code checks.'
      ),
      ...shapeEntries(ctx.doc).map(s => shapeBlock(ctx, s, labels))
    )
  };
}
