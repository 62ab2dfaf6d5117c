/**
 * A WAI-ARIA tab strip: `role="tab"` buttons controlling `role="tabpanel"` panes. A pane's
 * content is built the first time its tab is selected, so a big document costs only what
 * the reader opens. A hidden tab (nothing to show) is left out of the strip until something
 * selects it.
 */

import { el } from './dom';

export interface TabSpec {
  id: string;
  label: string;
  build: () => HTMLElement;
  hidden?: boolean;
}

let instances = 0;

export class Tabs {
  readonly element: HTMLElement;
  private buttons = new Map<string, HTMLButtonElement>();
  private panels = new Map<string, HTMLElement>();
  private built = new Set<string>();
  private current = '';

  constructor(
    private specs: TabSpec[],
    onSelect: (id: string) => void = () => undefined
  ) {
    const prefix = `tcx-${++instances}`;
    const strip = el('div', {
      class: 'tcx-tabs',
      attrs: { role: 'tablist', 'aria-label': 'tcexplore views' }
    });
    const panes = el('div', { class: 'tcx-panes' });
    for (const spec of specs) {
      const button = el(
        'button',
        {
          class: 'tcx-tab',
          attrs: {
            role: 'tab',
            type: 'button',
            id: `${prefix}-tab-${spec.id}`,
            'aria-controls': `${prefix}-panel-${spec.id}`,
            'aria-selected': 'false',
            tabindex: '-1',
            'data-tab': spec.id
          },
          onclick: () => {
            this.select(spec.id);
            onSelect(spec.id);
          }
        },
        spec.label
      );
      button.addEventListener('keydown', event => this.onKey(event, spec.id));
      button.hidden = spec.hidden ?? false;
      const panel = el('div', {
        class: 'tcx-panel',
        attrs: {
          role: 'tabpanel',
          id: `${prefix}-panel-${spec.id}`,
          'aria-labelledby': button.id,
          'data-tab': spec.id,
          tabindex: '0'
        }
      });
      panel.hidden = true;
      this.buttons.set(spec.id, button);
      this.panels.set(spec.id, panel);
      strip.appendChild(button);
      panes.appendChild(panel);
    }
    this.element = el('div', { class: 'tcx-tabbed' }, strip, panes);
  }

  get selected(): string {
    return this.current;
  }

  select(id: string): void {
    const spec = this.specs.find(s => s.id === id);
    if (!spec) {
      return;
    }
    for (const [other, button] of this.buttons) {
      const on = other === id;
      button.setAttribute('aria-selected', String(on));
      button.tabIndex = on ? 0 : -1;
      this.panels.get(other)!.hidden = !on;
    }
    this.current = id;
    this.buttons.get(id)!.hidden = false; // reached by a link: in the strip from then on
    if (!this.built.has(id)) {
      this.built.add(id);
      const panel = this.panels.get(id)!;
      try {
        panel.appendChild(spec.build());
      } catch (error) {
        panel.appendChild(
          el(
            'p',
            { class: 'tcx-error' },
            `This view could not be drawn: ${String(error)}`
          )
        );
      }
    }
  }

  private onKey(event: KeyboardEvent, id: string): void {
    const ids = this.specs
      .map(s => s.id)
      .filter(other => !this.buttons.get(other)!.hidden);
    const at = ids.indexOf(id);
    const next =
      event.key === 'ArrowRight'
        ? at + 1
        : event.key === 'ArrowLeft'
          ? at - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? ids.length - 1
              : null;
    if (next === null) {
      return;
    }
    event.preventDefault();
    const target = ids[(next + ids.length) % ids.length];
    this.select(target);
    this.buttons.get(target)!.focus();
  }
}
