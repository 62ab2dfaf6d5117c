/**
 * DOM building for every view. Text goes in through textContent (text nodes) only;
 * attributes are set one by one and never as event handlers or URLs, so nothing in a
 * document can become markup or script.
 */

export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  title?: string;
  attrs?: Record<string, string>;
  onclick?: (event: MouseEvent) => void;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props) {
    if (props.class) {
      node.className = props.class;
    }
    if (props.title) {
      node.title = props.title;
    }
    for (const [name, value] of Object.entries(props.attrs ?? {})) {
      if (/^on/i.test(name) || name === 'href' || name === 'src') {
        throw new Error(`refusing attribute ${name}`);
      }
      node.setAttribute(name, value);
    }
    const onclick = props.onclick;
    if (onclick) {
      node.addEventListener('click', event => onclick(event as MouseEvent));
    }
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    parent.appendChild(
      typeof child === 'string' || typeof child === 'number'
        ? document.createTextNode(String(child))
        : child
    );
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    node.setAttribute(name, String(value));
  }
  append(node, ...children);
  return node;
}

/** A button that looks like a link and goes somewhere in the explorer. */
export function link(
  text: string,
  go: () => void,
  title?: string
): HTMLButtonElement {
  return el(
    'button',
    {
      class: 'tcx-link',
      title,
      attrs: { type: 'button' },
      onclick: event => {
        event.stopPropagation();
        go();
      }
    },
    text
  );
}

export function table(
  headers: string[],
  rows: Child[][],
  className = ''
): HTMLTableElement {
  return el(
    'table',
    { class: `tcx-table ${className}`.trim() },
    el('thead', null, el('tr', null, ...headers.map(h => el('th', null, h)))),
    el(
      'tbody',
      null,
      ...rows.map(r => el('tr', null, ...r.map(c => el('td', null, c))))
    )
  );
}

/** A two-column table of facts: each row's name as its header, then its value. */
export function factsTable(rows: Array<[string, Child]>): HTMLTableElement {
  return el(
    'table',
    { class: 'tcx-table tcx-facts' },
    el(
      'tbody',
      null,
      ...rows.map(([k, v]) =>
        el(
          'tr',
          null,
          el('th', { attrs: { scope: 'row' } }, k),
          el('td', null, v)
        )
      )
    )
  );
}

export function note(
  text: string,
  className = 'tcx-note'
): HTMLParagraphElement {
  return el('p', { class: className }, text);
}

export function code(text: string): HTMLElement {
  return el('code', null, text);
}

/** A select whose options are (value, label) pairs. */
export function select(
  options: Array<[string, string]>,
  chosen: string,
  onChange: (value: string) => void,
  label: string
): HTMLSelectElement {
  const node = el(
    'select',
    { class: 'tcx-select', attrs: { 'aria-label': label } },
    ...options.map(([value, text]) => {
      const option = el('option', null, text);
      option.value = value;
      option.selected = value === chosen;
      return option;
    })
  );
  node.addEventListener('change', () => onChange(node.value));
  return node;
}

/** A long name (a kernel's) that may wrap after each "_" or ".", whole in its tooltip. */
export function wrappable(text: string): HTMLSpanElement {
  const span = el('span', { class: 'tcx-wrappable', title: text });
  text
    .split(/(?<=[_.])/)
    .forEach((part, i) => append(span, i ? el('wbr') : null, part));
  return span;
}
