/**
 * One finding of the Overview: its severity, its sentence (a link where it has a target),
 * and what it holds: a graph-break site, a recompiled function's guards, details, advice,
 * the fix tried or to try, and the evidence in other tabs.
 */

import { whereTitle } from '../model/format';
import { Finding, RecompiledFunction } from '../model/overview';
import { compileLinks, siteDetail, siteSummary } from './breaksite';
import { Context } from './context';
import { code, el, link } from './dom';
import { fixBlock } from './tried';

function recompileDetail(ctx: Context, r: RecompiledFunction): HTMLElement {
  return el(
    'div',
    { class: 'tcx-recompile-guards' },
    r.guards.length > 1
      ? el(
          'div',
          null,
          'Failed guards: ',
          ...r.guards.flatMap((g, i) => [
            i ? '; ' : '',
            code(g.guard),
            ` ×${g.count}`
          ])
        )
      : null,
    el(
      'div',
      { class: 'tcx-muted' },
      'Recompiles: ',
      compileLinks(
        ctx,
        r.compiles.map(c => c.id)
      )
    )
  );
}

/** A finding's evidence: each a link into the tab that shows it. */
function evidenceLinks(ctx: Context, f: Finding): HTMLElement | null {
  const links = (f.evidence ?? []).filter(e => e.target).slice(0, 12);
  if (links.length < 2 && !f.shape) {
    return null;
  }
  return el(
    'div',
    { class: 'tcx-muted tcx-evidence' },
    'See: ',
    ...links.flatMap((e, i) => [
      i ? ', ' : '',
      link(e.label, () => ctx.go(e.target!))
    ])
  );
}

export function findingItem(
  ctx: Context,
  f: Finding,
  drawn: Set<string>
): HTMLElement {
  const title = f.site
    ? whereTitle({ file: f.site.file, line: f.site.line, code: f.site.code })
    : undefined;
  const details = f.site || f.recompiled ? [] : (f.details ?? []);
  return el(
    'li',
    {
      class: `tcx-finding tcx-${f.severity}${f.site ? ' tcx-finding-break' : ''}`,
      attrs: {
        'data-kind': f.kind ?? '',
        ...(f.site
          ? {
              'data-file': f.site.file ?? '',
              'data-line': String(f.site.line ?? '')
            }
          : {})
      }
    },
    el('span', { class: 'tcx-badge' }, f.severity),
    el(
      'div',
      { class: 'tcx-finding-body' },
      f.target ? link(f.text, () => ctx.go(f.target!), title) : f.text,
      ...(f.site ? [...siteSummary(f.site), siteDetail(ctx, f.site)] : []),
      f.recompiled ? recompileDetail(ctx, f.recompiled) : null,
      details.length
        ? el(
            'ul',
            { class: 'tcx-finding-details' },
            ...details.slice(0, 20).map(d => el('li', null, d))
          )
        : null,
      f.advice && !f.site
        ? el('div', { class: 'tcx-hint' }, 'What to do: ', f.advice)
        : null,
      fixBlock(ctx, f, drawn),
      evidenceLinks(ctx, f)
    )
  );
}
