import { whereTitle } from '../model/format';
import {
  foldedSummary,
  LineChips,
  lineChips,
  Mark,
  OLD_MARKS_NOTE,
  SourceFile,
  sourceFiles
} from '../model/source';
import { Target } from '../model/types';
import { Context, TabView } from './context';
import { code, el, link, note } from './dom';

const SHOWN_KERNELS = 4;

function chip(
  ctx: Context,
  kind: string,
  text: string,
  title: string,
  target?: Target
): HTMLElement {
  return el(
    'button',
    {
      class: `tcx-chip tcx-mark-${kind}`,
      title,
      attrs: { type: 'button' },
      onclick: () => target && ctx.go(target)
    },
    text
  );
}

/** The guards of a line: one count chip; clicking it lists them below the line. */
function guardChip(ctx: Context, guards: Mark, list: HTMLElement): HTMLElement {
  return el(
    'button',
    {
      class: 'tcx-chip tcx-mark-guard',
      title: guards.title,
      attrs: { type: 'button', 'aria-expanded': 'false' },
      onclick: event => {
        const button = event.currentTarget as HTMLElement;
        const open = list.hidden;
        if (open && !list.childElementCount) {
          list.append(
            ...guards.items.map(g =>
              el(
                'li',
                null,
                link(
                  g.compile,
                  () => g.target && ctx.go(g.target),
                  'this compile in Guards & recompiles'
                ),
                ' ',
                code(g.text)
              )
            )
          );
        }
        list.hidden = !open;
        button.setAttribute('aria-expanded', String(open));
      }
    },
    guards.label
  );
}

/** A line's chips, in order: the first marks, its time, some kernels, its guards (opening
 * `guardList`), its nodes and its memory. */
function markBox(
  ctx: Context,
  chips: LineChips,
  guardList: HTMLElement
): HTMLElement {
  const box = el('span', { class: 'tcx-marks' });
  for (const m of chips.first) {
    box.appendChild(chip(ctx, m.kind, m.label, m.title || m.label, m.target));
  }
  if (chips.time) {
    box.appendChild(
      chip(
        ctx,
        'time',
        chips.time.label,
        chips.time.title || chips.time.label,
        chips.time.target
      )
    );
  }
  for (const m of chips.others.slice(0, SHOWN_KERNELS)) {
    box.appendChild(chip(ctx, m.kind, m.label, m.title || m.label, m.target));
  }
  if (chips.others.length > SHOWN_KERNELS) {
    box.appendChild(
      el(
        'span',
        { class: 'tcx-muted' },
        ` +${chips.others.length - SHOWN_KERNELS} more kernels`
      )
    );
  }
  if (chips.guards) {
    box.appendChild(guardChip(ctx, chips.guards, guardList));
  }
  const nodes = chips.nodes;
  if (nodes) {
    box.appendChild(chip(ctx, 'node', nodes.label, nodes.title, nodes.target));
  }
  const memory = chips.memory;
  if (memory) {
    box.appendChild(
      chip(
        ctx,
        memory.kind,
        memory.label,
        memory.title || memory.label,
        memory.target
      )
    );
  }
  return box;
}

function lineRow(
  ctx: Context,
  file: SourceFile,
  line: SourceFile['lines'][number]
): HTMLElement[] {
  const chips = lineChips(line);
  const guardList = el('ul', {
    class: 'tcx-guard-list',
    attrs: { hidden: '' }
  });
  const box = markBox(ctx, chips, guardList);
  const flagged = line.flagged;
  const time = chips.time;
  const memory = chips.memory;
  const row = el(
    'div',
    {
      class: `tcx-line${flagged ? ' tcx-line-flagged' : ''}${time || memory ? ' tcx-line-timed' : ''}`,
      title: whereTitle({ file: file.file, line: line.line, code: line.code }),
      attrs: { 'data-line': String(line.line) }
    },
    time
      ? el('span', {
          class: 'tcx-heat',
          attrs: {
            style: `width: ${((time.heat ?? 0) * 100).toFixed(1)}%`,
            'aria-hidden': 'true'
          }
        })
      : null,
    memory && !time
      ? el('span', {
          class: 'tcx-heat tcx-heat-memory',
          attrs: {
            style: `width: ${((memory.heat ?? 0) * 100).toFixed(1)}%`,
            'aria-hidden': 'true'
          }
        })
      : null,
    el('span', { class: 'tcx-lineno' }, String(line.line)),
    el('code', { class: 'tcx-line-code' }, line.code),
    box
  );
  return [row, guardList];
}

function fileSection(
  ctx: Context,
  f: SourceFile,
  rows: Map<string, HTMLElement>
): HTMLElement {
  const body = el('div', { class: 'tcx-source-lines' });
  let previous: number | null = null;
  for (const line of f.lines) {
    if (previous !== null && line.line > previous + 1) {
      body.appendChild(
        el('div', { class: 'tcx-gap', attrs: { 'aria-hidden': 'true' } }, '⋯')
      );
    }
    previous = line.line;
    const [row, guardList] = lineRow(ctx, f, line);
    rows.set(`${f.file}:${line.line}`, row);
    body.append(row, guardList);
  }
  return el(
    'section',
    { class: 'tcx-source-file' },
    el('h4', { class: 'tcx-file', title: f.file }, f.label),
    body
  );
}

export function sourceTab(ctx: Context): TabView {
  const stored = sourceFiles(ctx.doc);
  const files = stored ?? [];
  const rows = new Map<string, HTMLElement>();
  const element = el('div', { class: 'tcx-source' });
  if (!stored) {
    element.appendChild(note(OLD_MARKS_NOTE));
  } else if (!files.length) {
    element.appendChild(note('The document references no lines of user code.'));
  }
  const own = files.filter(f => !f.folded);
  const others = files.filter(f => f.folded);
  for (const f of own) {
    element.appendChild(fileSection(ctx, f, rows));
  }
  const fold = others.length
    ? el(
        'details',
        { class: 'tcx-library-files', attrs: own.length ? {} : { open: '' } },
        el('summary', null, foldedSummary(ctx.doc)),
        ...others.map(f => fileSection(ctx, f, rows))
      )
    : null;
  if (fold) {
    element.appendChild(fold);
  }
  return {
    element,
    reveal(target) {
      if (target.tab !== 'source') {
        return;
      }
      const row = rows.get(`${target.file}:${target.line}`);
      for (const r of element.querySelectorAll('.tcx-focus')) {
        r.classList.remove('tcx-focus');
      }
      if (row) {
        if (fold && fold.contains(row)) {
          fold.open = true;
        }
        row.classList.add('tcx-focus');
        row.scrollIntoView?.({ block: 'center' });
      }
    }
  };
}
