import { sourceLabels, where, whereTitle } from '../model/format';
import { guardRole, shapeEntries, whyDynamic } from '../model/shapes';
import { Context, TabView } from './context';
import { code, el, link, table } from './dom';

/** The Shapes tab: one block per dynamic size, its guarding lines linked to Source. */
export function shapesTab(ctx: Context): TabView {
  const labels = sourceLabels(ctx.doc);
  const entries = shapeEntries(ctx.doc);
  const blocks = entries.map(s => {
    const compile = ctx.doc.compiles.findIndex(c => c.id === s.compile);
    const rows = s.guards.map(g => [
      g.file && typeof g.line === 'number'
        ? link(
            where(g, labels),
            () =>
              ctx.go({
                tab: 'source',
                file: g.file as string,
                line: g.line as number
              }),
            whereTitle(g)
          )
        : where(g, labels),
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
              made.file && typeof made.line === 'number'
                ? link(
                    where(made, labels),
                    () =>
                      ctx.go({
                        tab: 'source',
                        file: made.file as string,
                        line: made.line as number
                      }),
                    whereTitle(made)
                  )
                : where(made, labels),
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
  });
  return {
    element: el(
      'div',
      { class: 'tcx-shapes' },
      el(
        'p',
        { class: 'tcx-muted' },
        'Sizes torch.compile treats as symbols: when each became dynamic (an unbacked one: the line that read it from a tensor), and the lines of your code whose conditions the compiled code checks.'
      ),
      ...blocks
    )
  };
}
