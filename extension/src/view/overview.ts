import { absentTabs } from '../model/absent';
import { breakSites, OLD_SITES_NOTE } from '../model/breaks';
import {
  findings,
  OLD_DOCUMENT_NOTE,
  OLD_PIPELINE_NOTE,
  Origin,
  origin,
  pipeline,
  Stage
} from '../model/overview';
import { microseconds, percent, sourceLabels } from '../model/format';
import { topLines } from '../model/profile';
import { compileTreeView } from './compiletree';
import { Context, TabView } from './context';
import { notCompiledView } from './notcompiled';
import { code, el, link, table } from './dom';
import { findingItem } from './finding';

/** What the document does not hold, for the tabs hidden because of it. */
function absentLine(doc: Context['doc']): HTMLElement | null {
  const absent = absentTabs(doc);
  return absent.length
    ? el(
        'p',
        { class: 'tcx-muted tcx-absent' },
        `Not in this document: ${absent.map(a => a.what).join('; ')}.`
      )
    : null;
}

/** The heaviest source lines of the profile, each linked to its place in Source. */
function timeLines(ctx: Context): HTMLElement | null {
  const lines = topLines(ctx.doc, 3);
  if (!lines.length) {
    return null;
  }
  return el(
    'div',
    { class: 'tcx-overview-time' },
    el('h3', null, 'Where the time goes: the heaviest lines'),
    el(
      'ol',
      { class: 'tcx-time-lines' },
      ...lines.map(l =>
        el(
          'li',
          null,
          el('span', {
            class: 'tcx-time-bar',
            attrs: { style: `width: ${(l.relative * 100).toFixed(1)}%` }
          }),
          el(
            'span',
            { class: 'tcx-time-value' },
            `${microseconds(l.us)} · ${percent(l.share)}`
          ),
          ' ',
          l.target
            ? link(l.label, () => ctx.go(l.target!))
            : el('span', { class: 'tcx-muted' }, l.label),
          ' ',
          code(l.code)
        )
      )
    ),
    link('All lines and every kernel against the roofline →', () =>
      ctx.go({ tab: 'profile' })
    )
  );
}

/** The pipeline's stages in a row, arrows between them; a note for a document without them. */
function pipelineView(drawn: Stage[] | null): HTMLElement {
  if (!drawn) {
    return el('p', { class: 'tcx-muted' }, OLD_PIPELINE_NOTE);
  }
  const stages = el('div', { class: 'tcx-pipeline' });
  drawn.forEach((stage, i) => {
    if (i) {
      stages.appendChild(
        el(
          'span',
          { class: 'tcx-arrow', attrs: { 'aria-hidden': 'true' } },
          '→'
        )
      );
    }
    stages.appendChild(
      el(
        'div',
        { class: `tcx-stage${stage.active ? '' : ' tcx-inactive'}` },
        el('div', { class: 'tcx-stage-name' }, stage.name),
        ...stage.counts.map(c => el('div', { class: 'tcx-stage-count' }, c)),
        stage.time ? el('div', { class: 'tcx-stage-time' }, stage.time) : null
      )
    );
  });
  return stages;
}

/** What the document's source does not record: unknown, not empty. */
function unavailableView(from: Origin): HTMLElement | null {
  return from.unavailable.length
    ? el(
        'details',
        { class: 'tcx-unavailable', attrs: { open: '' } },
        el(
          'summary',
          null,
          `Not available in this document (${from.unavailable.length}): its source does not record these; they are unknown, not empty`
        ),
        table(
          ['field', 'why'],
          from.unavailable.map(u => [el('code', null, u.field), u.reason])
        )
      )
    : null;
}

/** The events the capture could not read. */
function unreadView(from: Origin): HTMLElement | null {
  return from.unread
    ? el(
        'details',
        { class: 'tcx-unread', attrs: { open: '' } },
        el('summary', null, from.unread.title),
        table(
          ['reason', 'kind', 'compile', 'line', 'error', 'read'],
          from.unread.items.map(i => [
            i.reason,
            code(i.kind ?? '?'),
            i.compile ?? '',
            i.line === null ? '' : String(i.line),
            i.error,
            code(i.excerpt ?? '')
          ])
        )
      )
    : null;
}

export function overviewTab(ctx: Context): TabView {
  const { doc } = ctx;
  const triesDrawn = new Set<string>(); // drawn in full once: a later finding, the sentence
  const list = Array.isArray(doc.findings)
    ? el(
        'ul',
        { class: 'tcx-findings' },
        ...findings(doc).map(f => findingItem(ctx, f, triesDrawn))
      )
    : el('p', { class: 'tcx-muted tcx-findings-absent' }, OLD_DOCUMENT_NOTE);
  const from = origin(doc);
  return {
    element: el(
      'div',
      { class: 'tcx-overview' },
      from.partial
        ? el(
            'p',
            { class: 'tcx-error', attrs: { role: 'alert' } },
            `Partial document: ${from.partial}`
          )
        : null,
      el('h3', null, 'Findings'),
      list,
      breakSites(doc)
        ? null
        : el('p', { class: 'tcx-muted tcx-sites-absent' }, OLD_SITES_NOTE),
      notCompiledView(ctx),
      timeLines(ctx),
      unavailableView(from),
      unreadView(from),
      el('h3', null, 'Pipeline'),
      pipelineView(pipeline(doc)),
      el(
        'h3',
        null,
        `Compiles (${doc.compiles.length}), by the call path that made them`
      ),
      el(
        'p',
        { class: 'tcx-muted' },
        "Each compile is one cache entry of its frame's code, kept with its guards; library frames on a path are folded."
      ),
      compileTreeView(ctx, sourceLabels(doc)),
      absentLine(doc),
      el('p', { class: 'tcx-muted tcx-origin' }, from.line)
    ),
    reveal(target) {
      if (target.tab === 'overview' && target.file !== undefined) {
        revealSite(list, target.file, target.line);
      }
    }
  };
}

/** A graph-break site's finding: opened, brought into sight and marked for a moment. */
function revealSite(
  list: HTMLElement,
  file: string,
  line: number | undefined
): void {
  const item = [
    ...list.querySelectorAll<HTMLElement>('.tcx-finding-break')
  ].find(
    li =>
      li.getAttribute('data-file') === file &&
      li.getAttribute('data-line') === String(line ?? '')
  );
  if (!item) {
    return;
  }
  item.querySelector('details')?.setAttribute('open', '');
  item.scrollIntoView?.({ block: 'start' });
  item.classList.add('tcx-focus');
  window.setTimeout(() => item.classList.remove('tcx-focus'), 1500);
}
