/**
 * A finding's fix as the Overview draws it: the try's stored sentence and a before → after
 * table; or the setting that can be tried, with "Try it" where a kernel can try it; or why
 * the advice is not tried. Everything shown was decided in Python (tcexplore/findings/).
 */

import { duration, formatBytes, sig3 } from '../model/format';
import { Finding } from '../model/overview';
import { TriedFix, TrySide } from '../model/types';
import { Context } from './context';
import { code, el } from './dom';

const ROWS: Array<[string, keyof TrySide, (v: never) => string]> = [
  ['graphs', 'graphs', (v: number) => String(v)],
  ['graph breaks', 'graph_breaks', (v: number) => String(v)],
  ['recompiles', 'recompiles', (v: number) => String(v)],
  ['compile time', 'compile_s', (v: number) => duration(v * 1000)],
  ['time per call', 'median_ms', (v: number) => duration(v)],
  ['peak memory', 'peak_bytes', (v: number) => formatBytes(v)],
  ['outputs match eager', 'outputs_match', (v: boolean) => (v ? 'yes' : 'no')]
];

const TRY_ELSEWHERE =
  'explore(..., try_fixes=True) or %%tcompile --try-fixes tries it';

function value(
  side: TrySide | null,
  key: keyof TrySide,
  write: (v: never) => string
): string {
  const v = side?.[key];
  return v === null || v === undefined ? '—' : write(v as never);
}

/**
 * The try: its sentence, then before → after for each figure either side has; ``brief``
 * (a later finding holding a try drawn above): the sentence only.
 */
export function triedBlock(tried: TriedFix, brief = false): HTMLElement {
  const rows = ROWS.filter(
    ([, key]) =>
      (tried.before?.[key] ?? null) !== null ||
      (tried.after?.[key] ?? null) !== null
  ).map(([label, key, write]) =>
    el(
      'tr',
      null,
      el('th', null, label),
      el('td', null, value(tried.before, key, write)),
      el('td', null, value(tried.after, key, write))
    )
  );
  if (tried.interval && tried.interval.length === 2) {
    rows.push(
      el(
        'tr',
        null,
        el('th', null, 'speedup, 95% interval'),
        el('td', null, ''),
        el(
          'td',
          null,
          `${sig3(tried.interval[0])}×–${sig3(tried.interval[1])}×`
        )
      )
    );
  }
  return el(
    'div',
    {
      class: `tcx-tried ${tried.helped ? 'tcx-tried-helped' : 'tcx-tried-not'}`,
      attrs: { 'data-label': tried.label }
    },
    el('div', { class: 'tcx-tried-sentence' }, tried.sentence),
    rows.length && !brief
      ? el(
          'table',
          { class: 'tcx-tried-table' },
          el(
            'thead',
            null,
            el(
              'tr',
              null,
              el('th', null, ''),
              el('th', null, 'before'),
              el('th', null, 'after')
            )
          ),
          el('tbody', null, ...rows)
        )
      : null
  );
}

/**
 * What the finding's fix came to, or can come to; null for a finding without one. ``drawn``:
 * the labels whose try a finding above drew in full (one try, held by several findings).
 */
export function fixBlock(
  ctx: Context,
  f: Finding,
  drawn: Set<string> = new Set()
): HTMLElement | null {
  if (f.tried) {
    const brief = drawn.has(f.tried.label);
    drawn.add(f.tried.label);
    return triedBlock(f.tried, brief);
  }
  const fix = f.fix;
  if (!fix) {
    return null;
  }
  if (!fix.setting || !fix.label) {
    return fix.not_tried
      ? el(
          'div',
          { class: 'tcx-muted tcx-not-tried' },
          `Not tried: ${fix.not_tried}`
        )
      : null;
  }
  const block = el(
    'div',
    {
      class: 'tcx-muted tcx-can-try',
      attrs: { 'data-try': fix.label }
    },
    'Can be tried: ',
    code(fix.label),
    ' '
  );
  block.append(tryButton(ctx, fix.label, block) ?? `(${TRY_ELSEWHERE})`);
  return block;
}

/**
 * A try drawn where it was asked for, and in place of every other offer of the same setting
 * in this explorer (one try, held by several findings, as Python attaches a stored one):
 * a tried setting is no longer offered.
 */
function drawTried(block: HTMLElement, tried: TriedFix): void {
  let top: HTMLElement = block;
  while (top.parentElement) {
    top = top.parentElement;
  }
  const explorer = block.closest('.tcx-explorer') ?? top;
  const others = Array.from(
    explorer.querySelectorAll<HTMLElement>('.tcx-can-try')
  ).filter(other => other !== block && other.dataset.try === tried.label);
  block.replaceWith(triedBlock(tried));
  others.forEach(other => other.replaceWith(triedBlock(tried, true)));
}

/** "Try it" where the page offers it (JupyterLab); disabled, saying why, with no kernel. */
function tryButton(
  ctx: Context,
  label: string,
  block: HTMLElement
): HTMLElement | null {
  const tryFix = ctx.host?.tryFix;
  const documentId = ctx.doc.id;
  if (!tryFix || typeof documentId !== 'string') {
    return null;
  }
  const status = el('span', {
    class: 'tcx-muted tcx-try-status',
    attrs: { role: 'status' }
  });
  const disable = (why: string) => {
    button.disabled = true;
    button.title = why;
    status.textContent = ` ${why}`;
  };
  const button = el(
    'button',
    {
      class: 'tcx-try-fix',
      title:
        `Run this call again with ${label} and without it, each compiled afresh in ` +
        "isolation in the notebook's kernel, and show before → after",
      attrs: { type: 'button', 'data-label': label },
      onclick: event => {
        event.stopPropagation();
        button.disabled = true;
        status.className = 'tcx-muted tcx-try-status';
        status.textContent = ` trying ${label} (compiles the call twice)…`;
        tryFix({ document: documentId, label }).then(
          tried => drawTried(block, tried),
          (error: unknown) => {
            status.textContent = ` ${error instanceof Error ? error.message : String(error)}`;
            status.className = 'tcx-error tcx-try-status';
            button.disabled = false;
          }
        );
      }
    },
    'Try it'
  );
  void ctx.host?.tryFixUnavailable?.().then(why => {
    if (why) {
      disable(why);
    }
  });
  return el('span', { class: 'tcx-try' }, button, status);
}
