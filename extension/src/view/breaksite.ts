/**
 * A graph-break site as the Overview's finding draws it: torch's hint and page, then why it
 * broke (each reason, where Dynamo goes on after it) and every call path that reached it,
 * library frames folded.
 */

import { foldStack } from '../model/breaks';
import {
  plural,
  SourceLabels,
  sourceLabels,
  where,
  whereTitle
} from '../model/format';
import { BreakSite, CallPath, StackFrame } from '../model/types';
import { Context } from './context';
import { code, el, link } from './dom';

export function compileLinks(
  ctx: Context,
  ids: Array<string | null>
): HTMLElement {
  const box = el('span', { class: 'tcx-compile-links' });
  ids.forEach((id, i) => {
    const index = ctx.doc.compiles.findIndex(c => c.id === id);
    box.appendChild(
      index >= 0
        ? link(
            String(id),
            () => ctx.go({ tab: 'guards', compile: index }),
            `compile ${id} in Guards & recompiles`
          )
        : code(String(id ?? '?'))
    );
    if (i < ids.length - 1) {
      box.appendChild(document.createTextNode(', '));
    }
  });
  return box;
}

function frameLine(
  ctx: Context,
  f: StackFrame,
  labels: SourceLabels
): HTMLElement {
  const at = where(f, labels);
  const place =
    f.file && typeof f.line === 'number'
      ? link(
          at,
          () =>
            ctx.go({
              tab: 'source',
              file: f.file as string,
              line: f.line as number
            }),
          whereTitle(f)
        )
      : el('span', { title: whereTitle(f) }, at);
  return el(
    'li',
    { class: f.library ? 'tcx-frame tcx-library' : 'tcx-frame' },
    place,
    f.function ? el('span', null, ' in ', code(f.function)) : null,
    f.code ? el('div', null, code(f.code)) : null
  );
}

/** A stack, outermost first: the user's frames shown, each run of library frames folded. */
function stackView(
  ctx: Context,
  path: CallPath,
  labels: SourceLabels
): HTMLElement {
  return el(
    'ul',
    { class: 'tcx-stack' },
    ...foldStack(path.stack).map(run =>
      run.library
        ? el(
            'li',
            null,
            el(
              'details',
              { class: 'tcx-library-frames' },
              el('summary', null, plural(run.frames.length, 'library frame')),
              el(
                'ul',
                { class: 'tcx-stack' },
                ...run.frames.map(f => frameLine(ctx, f, labels))
              )
            )
          )
        : frameLine(ctx, run.frame, labels)
    )
  );
}

/** Each reason of a site: its message (where there are several), torch's explanation, hints and developer context. */
function reasonBlocks(site: BreakSite): HTMLElement[] {
  return site.reasons.map(r =>
    el(
      'div',
      { class: 'tcx-break-reason' },
      site.reasons.length > 1
        ? el(
            'p',
            null,
            el('strong', null, r.message),
            ` (${plural(r.count, 'break event')})`
          )
        : null,
      r.explanation ? el('p', null, r.explanation) : null,
      ...r.hints.slice(1).map(h => el('p', { class: 'tcx-hint' }, 'Hint: ', h)),
      r.context
        ? el(
            'details',
            { class: 'tcx-dev-context' },
            el('summary', null, "torch's developer context"),
            el('pre', null, r.context)
          )
        : null
    )
  );
}

/** Where Dynamo goes on after the break: each resume function with its compiles. */
function resumeLine(ctx: Context, site: BreakSite): HTMLElement | null {
  return site.resume_functions.length
    ? el(
        'div',
        null,
        'Dynamo goes on after the break in ',
        ...site.resume_functions.flatMap((r, i) => [
          i ? '; ' : '',
          code(r.name),
          ' (',
          compileLinks(ctx, r.compiles),
          ')'
        ]),
        '.'
      )
    : null;
}

/** Each call path that reached the site, named by the user's functions on it (open when it is the only one). */
function pathViews(
  ctx: Context,
  site: BreakSite,
  labels: SourceLabels
): HTMLElement[] {
  return site.paths.map(p =>
    el(
      'details',
      {
        class: 'tcx-call-path',
        attrs: site.paths.length === 1 ? { open: '' } : {}
      },
      el(
        'summary',
        null,
        p.stack
          .filter(f => !f.library)
          .map(f => f.function ?? '?')
          .join(' → ') || 'library code only',
        el(
          'span',
          { class: 'tcx-muted' },
          ` (${plural(p.count, 'break event')})`
        )
      ),
      stackView(ctx, p, labels)
    )
  );
}

export function siteDetail(ctx: Context, site: BreakSite): HTMLElement {
  const labels = sourceLabels(ctx.doc);
  return el(
    'details',
    { class: 'tcx-finding-detail' },
    el('summary', null, 'Why, and how it was reached'),
    ...reasonBlocks(site),
    el(
      'p',
      { class: 'tcx-muted' },
      site.count_note,
      ' Compiles: ',
      compileLinks(ctx, site.compiles)
    ),
    resumeLine(ctx, site),
    el(
      'p',
      null,
      `Reached from ${plural(site.paths.length, 'call path')} (outermost frame first; library frames folded):`
    ),
    ...pathViews(ctx, site, labels)
  );
}

export function siteSummary(site: BreakSite): HTMLElement[] {
  const reason = site.reasons[0];
  if (!reason) {
    return [];
  }
  const out: HTMLElement[] = [];
  if (reason.hints.length) {
    out.push(el('div', { class: 'tcx-hint' }, 'Hint: ', reason.hints[0]));
  }
  if (reason.link) {
    out.push(
      el(
        'div',
        { class: 'tcx-muted' },
        "torch's page for this break: ",
        code(reason.link)
      )
    );
  }
  return out;
}
