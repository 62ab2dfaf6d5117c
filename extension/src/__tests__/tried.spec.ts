/**
 * Advice tried: the Overview draws each finding's try as Python stored it (its sentence and
 * before → after), the setting that can be tried with "Try it" where a kernel can try it
 * (and disabled, saying why, where none runs), and why advice is not tried. The findings
 * are a real exploration's (tests/fixtures/tried: an `.item()` break, a graph_break() call
 * and a size recompile, explored with try_fixes=True).
 */

import * as fs from 'fs';
import * as path from 'path';

import { findings } from '../model/overview';
import { parseTried, TRIED_MARK, tryStatement } from '../model/tryfix';
import { TcxDocument, TriedFix } from '../model/types';
import { Context, Host } from '../view/context';
import { overviewTab } from '../view/overview';
import { fixture } from './fixture';

const FIXTURE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'tried',
  'findings.json'
);

const settle = () => new Promise(resolve => setTimeout(resolve, 0));

interface Saved {
  id: string;
  findings: TcxDocument['findings'];
}

function saved(): Saved {
  return JSON.parse(fs.readFileSync(FIXTURE, 'utf-8'));
}

/** The fixture's findings in a document; ``untried`` drops their tried records. */
function doc(untried = false): TcxDocument {
  const { id, findings: found } = saved();
  const d = fixture();
  d.id = id;
  d.findings = (found ?? []).map(f => {
    if (!untried) {
      return f;
    }
    const copy = { ...f };
    delete copy.tried;
    return copy;
  });
  return d;
}

function overview(d: TcxDocument, host?: Host): HTMLElement {
  const ctx: Context = { doc: d, go: () => undefined, host };
  return overviewTab(ctx).element;
}

function item(root: HTMLElement, label: string): HTMLElement {
  return root.querySelector(
    `.tcx-finding:has([data-label="${label}"])`
  ) as HTMLElement;
}

describe('advice tried', () => {
  it("draws each try's stored sentence and its before → after table", () => {
    const d = doc();
    const root = overview(d);
    const tried = (d.findings ?? [])
      .map(f => f.tried)
      .filter((t): t is TriedFix => !!t);
    expect(tried.length).toBeGreaterThan(0);
    const blocks = Array.from(root.querySelectorAll('.tcx-tried'));
    expect(blocks.length).toBe(tried.length);
    const seen = new Set<string>();
    blocks.forEach((block, i) => {
      expect(block.querySelector('.tcx-tried-sentence')?.textContent).toBe(
        tried[i].sentence
      );
      expect(block.classList.contains('tcx-tried-helped')).toBe(
        tried[i].helped
      );
      // one try held by several findings: its table once, then the sentence alone
      const graphs = Array.from(block.querySelectorAll('tr')).find(
        tr => tr.querySelector('th')?.textContent === 'graphs'
      );
      if (seen.has(tried[i].label)) {
        expect(graphs).toBeUndefined();
        return;
      }
      seen.add(tried[i].label);
      expect(
        Array.from(graphs!.querySelectorAll('td')).map(td => td.textContent)
      ).toEqual([
        String(tried[i].before!.graphs),
        String(tried[i].after!.graphs)
      ]);
    });
    expect(seen.size).toBeLessThan(tried.length); // dynamic=True: three findings
    const scalar = item(root, 'capture_scalar_outputs=True');
    expect(scalar.textContent).toContain('Tried: capture_scalar_outputs=True');
    expect(root.querySelector('.tcx-try-fix')).toBeNull(); // all tried already
  });

  it('says why advice that needs a code change is not tried', () => {
    const root = overview(doc());
    const notTried = root.querySelector('.tcx-not-tried');
    expect(notTried?.textContent).toMatch(/^Not tried: .*change to the code/);
  });

  it('offers no button where no page can try it (a report, a test)', () => {
    const root = overview(doc(true));
    expect(root.querySelector('.tcx-try-fix')).toBeNull();
    expect(root.querySelector('.tcx-can-try')?.textContent).toContain(
      'try_fixes=True'
    );
  });

  it('is disabled, saying why, where the notebook has no kernel', async () => {
    const root = overview(doc(true), {
      tryFix: async () => {
        throw new Error('never asked');
      },
      tryFixUnavailable: async () => 'No kernel: start one'
    });
    await settle();
    const button = root.querySelector('.tcx-try-fix') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toBe('No kernel: start one');
  });

  it('asks the kernel by document id and label, and draws the try in place', async () => {
    const d = doc(true);
    const asked: Array<{ document: string; label: string }> = [];
    const stored = saved().findings!.find(
      f => f.fix?.label === 'capture_scalar_outputs=True'
    )!.tried!;
    const root = overview(d, {
      tryFix: async request => {
        asked.push(request);
        return stored;
      },
      tryFixUnavailable: async () => null
    });
    await settle();
    const button = root.querySelector(
      '.tcx-try-fix[data-label="capture_scalar_outputs=True"]'
    ) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    button.click();
    await settle();
    expect(asked).toEqual([
      { document: d.id, label: 'capture_scalar_outputs=True' }
    ]);
    const drawn = item(root, 'capture_scalar_outputs=True');
    expect(drawn.querySelector('.tcx-tried-sentence')?.textContent).toBe(
      stored.sentence
    );
    expect(drawn.querySelector('.tcx-try-fix')).toBeNull();
  });

  it('is no longer offered on any finding of the setting once it was tried', async () => {
    const stored = saved().findings!.find(
      f => f.fix?.label === 'dynamic=True'
    )!.tried!;
    const asked: string[] = [];
    const root = overview(doc(true), {
      tryFix: async request => {
        asked.push(request.label);
        return stored;
      },
      tryFixUnavailable: async () => null
    });
    await settle();
    const offers = () =>
      Array.from(root.querySelectorAll<HTMLElement>('.tcx-can-try')).filter(
        b => b.dataset.try === 'dynamic=True'
      );
    expect(offers().length).toBe(3); // three findings advise it
    (offers()[0].querySelector('.tcx-try-fix') as HTMLButtonElement).click();
    await settle();
    expect(asked).toEqual(['dynamic=True']);
    expect(offers()).toEqual([]);
    const drawn = Array.from(
      root.querySelectorAll<HTMLElement>(
        '.tcx-tried[data-label="dynamic=True"]'
      )
    );
    expect(drawn.length).toBe(3);
    expect(drawn.filter(b => b.querySelector('.tcx-tried-table')).length).toBe(
      1
    ); // in full once, then its sentence
  });

  it('sends the request as data in one Python string literal and reads the reply', () => {
    const request = {
      document: 'a"b\n</script>',
      label: 'mode="max-autotune"'
    };
    const statement = tryStatement(request);
    const literal = statement.slice(statement.indexOf('print_tried(') + 12, -1);
    expect(JSON.parse(JSON.parse(literal))).toEqual(request);
    expect(literal).not.toMatch(/[\n\r]/);
    const stored = saved().findings!.find(f => f.tried)!.tried!;
    expect(
      parseTried(`noise\n${TRIED_MARK}${JSON.stringify({ tried: stored })}\n`)
    ).toEqual(stored);
    expect(() =>
      parseTried(
        `${TRIED_MARK}${JSON.stringify({ error: 'not in this kernel' })}`
      )
    ).toThrow('not in this kernel');
  });

  it('keeps the fix and the try on the model finding', () => {
    const found = findings(doc());
    expect(found.some(f => f.tried && f.fix?.setting)).toBe(true);
  });
});
