import { plural, SourceLabels, sourceLabels, where } from '../model/format';
import { guardSummary, RecompileEntry, recompiles } from '../model/guards';
import { Compile, Location, UserLine } from '../model/types';
import { Context, TabView } from './context';
import { code, el, link, note, table } from './dom';

const GUARD_ROWS = 300;
/** A frame torch skipped after a graph break it could not handle: as torch tells it. */
const SKIPPED =
  "torch skipped this frame after a graph break it could not handle: it ran eagerly. torch's words:";

/**
 * The "user code" cell: the user's line Python chose (`user_line`: the guard's own line, or
 * the compiled frame's, each call of which checks it); none chosen: torch's or a library's
 * location, muted; a document from before the choice: the location as torch printed it.
 */
function userCodeCell(
  line: UserLine | null | undefined,
  userCode: string | null | undefined,
  location: Location | null | undefined,
  labels: SourceLabels
): HTMLElement {
  if (line) {
    return el(
      'span',
      line.frame
        ? {
            class: 'tcx-muted',
            title: line.library_line
              ? `torch's location: ${line.library_line}`
              : ''
          }
        : null,
      line.code ? code(line.code) : '',
      line.code ? ' ' : '',
      line.frame
        ? `each call of ${line.function ?? '?'} (${line.where})`
        : line.where
    );
  }
  if (line === null) {
    return el(
      'span',
      { class: 'tcx-muted' },
      location ? `library: ${where(location, labels)}` : ''
    );
  }
  return el(
    'span',
    null,
    userCode ? code(userCode) : '',
    location ? ` ${where(location, labels)}` : ''
  );
}

function guardTable(c: Compile, labels: SourceLabels): HTMLElement {
  const rows = (limit: number) =>
    c.guards
      .slice(0, limit)
      .map(g => [
        g.type,
        code(g.source ?? ''),
        code(g.expression),
        userCodeCell(g.user_line, g.user_code, g.user_location, labels)
      ]);
  const headers = ['type', 'source', 'expression', 'user code'];
  const holder = el(
    'div',
    null,
    table(headers, rows(GUARD_ROWS), 'tcx-guard-table')
  );
  if (c.guards.length > GUARD_ROWS) {
    holder.appendChild(
      el(
        'button',
        {
          attrs: { type: 'button' },
          onclick: () =>
            holder.replaceChildren(
              table(headers, rows(c.guards.length), 'tcx-guard-table')
            )
        },
        `show all ${c.guards.length} guards`
      )
    );
  }
  return holder;
}

/** A recompile: why no cached compile of its frame passed (each failed guard, expected
 * against actual), each cached compile linked to its guards. */
function recompileBlock(
  compiles: Compile[],
  r: RecompileEntry,
  labels: SourceLabels,
  openGuards: (i: number) => void
): HTMLElement {
  return el(
    'section',
    {
      class: 'tcx-recompile',
      attrs: { 'data-compile': compiles[r.compile].id }
    },
    el('h4', { class: 'tcx-recompile-title' }, r.title),
    el(
      'p',
      { class: 'tcx-muted' },
      `Compile ${compiles[r.compile].id} was made because no cached compile of this frame passed its guards:`
    ),
    table(
      [
        'cached compile',
        'its guard that failed',
        'expected',
        'actual',
        'user code'
      ],
      r.rows.map(row => [
        row.cachedIndex >= 0
          ? link(
              row.cached,
              () => openGuards(row.cachedIndex),
              `the guards of compile ${row.cached}`
            )
          : code(row.cached),
        code(row.guard),
        el('span', { class: 'tcx-expected' }, row.expected),
        el('span', { class: 'tcx-actual' }, row.actual),
        userCodeCell(row.userLine, row.userCode, row.userLocation, labels)
      ]),
      'tcx-recompile-table'
    ),
    link(`its own ${plural(compiles[r.compile].guards.length, 'guard')}`, () =>
      openGuards(r.compile)
    )
  );
}

/** A compile's fold (its guard table added when first opened): its frame, status, whether it
 * was a recompile and its guards in brief; opened on the error of a compile that failed. */
function compileFold(
  c: Compile,
  labels: SourceLabels,
  recompiled: boolean
): HTMLDetailsElement {
  const fold = el(
    'details',
    { class: 'tcx-compile-guards', attrs: { 'data-guards-of': c.id } },
    el(
      'summary',
      null,
      el(
        'strong',
        { title: c.frame?.file ?? '' },
        `Compile ${c.id} · ${c.frame?.shown_name ?? c.frame?.function ?? '?'} (${where(c.frame, labels)}) `
      ),
      el(
        'span',
        {
          class: `tcx-status tcx-status-${c.status}`,
          title: c.cache_hit?.note ?? ''
        },
        c.status
      ),
      recompiled
        ? el('span', { class: 'tcx-chip tcx-mark-recompile' }, 'recompile')
        : null,
      el('span', { class: 'tcx-muted' }, ` ${guardSummary(c)}`)
    )
  );
  if (c.error && c.status === 'skipped') {
    fold.open = true;
    fold.appendChild(note(SKIPPED));
    fold.appendChild(
      el('pre', { class: 'tcx-torch-words' }, c.error.message ?? '')
    );
  } else if (c.error) {
    fold.open = true;
    fold.appendChild(
      el(
        'p',
        { class: 'tcx-error' },
        `${c.error.type ?? 'error'}: ${c.error.message ?? ''}`
      )
    );
  }
  if (c.cache_hit) {
    fold.appendChild(el('p', { class: 'tcx-note' }, c.cache_hit.note));
  }
  return fold;
}

export function guardsTab(ctx: Context): TabView {
  const compiles = ctx.doc.compiles;
  const labels = sourceLabels(ctx.doc);
  const element = el('div', { class: 'tcx-guards' });
  if (!compiles.length) {
    element.appendChild(note('No compiles in this document.'));
    return { element };
  }
  const folds: HTMLDetailsElement[] = [];
  const blocks = new Map<number, HTMLElement>();
  /** A compile's guard table (hundreds of rows) is built when first unfolded. */
  const fill = (i: number) => {
    const fold = folds[i];
    if (
      fold &&
      compiles[i].guards.length &&
      !fold.querySelector('.tcx-guard-table')
    ) {
      fold.appendChild(guardTable(compiles[i], labels));
    }
  };
  const openGuards = (i: number) => {
    const fold = folds[i];
    if (fold) {
      fill(i);
      fold.open = true;
      fold.scrollIntoView?.({ block: 'start' });
    }
  };
  const found = recompiles(compiles);
  element.appendChild(el('h3', null, `Recompiles (${found.length})`));
  if (!found.length) {
    element.appendChild(
      note(
        'No recompiles: every compile was the first of its frame.',
        'tcx-muted'
      )
    );
  }
  for (const r of found) {
    const block = recompileBlock(compiles, r, labels, openGuards);
    blocks.set(r.compile, block);
    element.appendChild(block);
  }
  const total = compiles.reduce((n, c) => n + c.guards.length, 0);
  element.appendChild(
    el('h3', null, `Guards (${total} in ${plural(compiles.length, 'compile')})`)
  );
  compiles.forEach((c, i) => {
    const fold = compileFold(c, labels, blocks.has(i));
    folds.push(fold);
    fold.addEventListener('toggle', () => fill(i));
    if (fold.open) {
      fill(i);
    }
    element.appendChild(fold);
  });
  return {
    element,
    reveal(target) {
      if (target.tab !== 'guards') {
        return;
      }
      const block = blocks.get(target.compile);
      if (block) {
        block.scrollIntoView?.({ block: 'start' });
        block.classList.add('tcx-focus');
        window.setTimeout(() => block.classList.remove('tcx-focus'), 1500);
      } else {
        openGuards(target.compile);
      }
    }
  };
}
