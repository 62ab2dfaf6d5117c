/** Highlighted code with line numbers; past HIGHLIGHT_CHARS the rest is plain text. */

import { boundedText } from '../model/bounds';
import { Language, tokenize } from './highlight';
import { el } from './dom';

export const HIGHLIGHT_CHARS = 150_000;

export function codeBlock(
  whole: string,
  language: Language,
  firstLine = 1
): HTMLElement {
  const { value: text, note: limited } = boundedText(whole);
  const head =
    text.length > HIGHLIGHT_CHARS
      ? text.slice(
          0,
          text.lastIndexOf('\n', HIGHLIGHT_CHARS) + 1 || HIGHLIGHT_CHARS
        )
      : text;
  const body = el('code');
  for (const token of tokenize(head, language)) {
    body.appendChild(
      token.type === 'text'
        ? document.createTextNode(token.text)
        : el('span', { class: `tcx-tok-${token.type}` }, token.text)
    );
  }
  if (head.length < text.length) {
    body.appendChild(document.createTextNode(text.slice(head.length)));
  }
  const lines = text.split('\n').length;
  const numbers = Array.from({ length: lines }, (_, i) =>
    String(firstLine + i)
  ).join('\n');
  return el(
    'div',
    { class: 'tcx-codeblock' },
    el(
      'pre',
      { class: 'tcx-gutter', attrs: { 'aria-hidden': 'true' } },
      numbers
    ),
    el('pre', { class: 'tcx-code' }, body),
    head.length < text.length
      ? el(
          'p',
          { class: 'tcx-note' },
          `Highlighting stops after ${head.length} characters; the rest is plain text.`
        )
      : null,
    limited ? el('p', { class: 'tcx-note' }, limited) : null
  );
}
