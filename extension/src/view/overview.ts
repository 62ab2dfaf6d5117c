import { absentTabs } from '../model/absent';
import {
  breakSites,
  foldStack,
  OLD_SITES_NOTE,
  resumeLabel
} from '../model/breaks';
import {
  compilesPerFrame,
  compileTree,
  TreeCompile,
  TreeNode
} from '../model/compiletree';
import {
  Finding,
  findings,
  OLD_DOCUMENT_NOTE,
  OLD_PIPELINE_NOTE,
  origin,
  pipeline,
  RecompiledFunction
} from '../model/overview';
import {
  microseconds,
  percent,
  plural,
  SourceLabels,
  sourceLabels,
  where,
  whereTitle
} from '../model/format';
import { topLines } from '../model/profile';
import { BreakSite, CallPath, StackFrame } from '../model/types';
import { Context, TabView } from './context';
import { notCompiledView } from './notcompiled';
import { code, el, link, table } from './dom';
import { fixBlock } from './tried';

function compileLinks(ctx: Context, ids: Array<string | null>): HTMLElement {
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

function siteDetail(ctx: Context, site: BreakSite): HTMLElement {
  const labels = sourceLabels(ctx.doc);
  const reasons = site.reasons.map(r =>
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
  const resumes = site.resume_functions.length
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
  const paths = site.paths.map(p =>
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
  return el(
    'details',
    { class: 'tcx-finding-detail' },
    el('summary', null, 'Why, and how it was reached'),
    ...reasons,
    el(
      'p',
      { class: 'tcx-muted' },
      site.count_note,
      ' Compiles: ',
      compileLinks(ctx, site.compiles)
    ),
    resumes,
    el(
      'p',
      null,
      `Reached from ${plural(site.paths.length, 'call path')} (outermost frame first; library frames folded):`
    ),
    ...paths
  );
}

function siteSummary(site: BreakSite): HTMLElement[] {
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

function findingItem(
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
function compileTreeView(ctx: Context, labels: SourceLabels): HTMLElement {
  const perFrame = compilesPerFrame(ctx.doc);
  return el(
    'ul',
    { class: 'tcx-tree tcx-compile-tree' },
    ...compileTree(ctx.doc).map(n => treeNode(ctx, n, perFrame, labels))
  );
}

export function overviewTab(ctx: Context): TabView {
  const { doc } = ctx;
  const labels = sourceLabels(doc);
  const triesDrawn = new Set<string>(); // drawn in full once: a later finding, the sentence
  const list = Array.isArray(doc.findings)
    ? el(
        'ul',
        { class: 'tcx-findings' },
        ...findings(doc).map(f => findingItem(ctx, f, triesDrawn))
      )
    : el('p', { class: 'tcx-muted tcx-findings-absent' }, OLD_DOCUMENT_NOTE);
  const stages = el('div', { class: 'tcx-pipeline' });
  const drawn = pipeline(doc);
  (drawn ?? []).forEach((stage, i) => {
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
  const from = origin(doc);
  const missing = from.unavailable.length
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
  const unread = from.unread
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
  const compiles = compileTreeView(ctx, labels);
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
      missing,
      unread,
      el('h3', null, 'Pipeline'),
      drawn ? stages : el('p', { class: 'tcx-muted' }, OLD_PIPELINE_NOTE),
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
      compiles,
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
