import { gunzipSync, gzipSync } from 'zlib';
import { languageOf, tokenize } from '../view/highlight';
import { findExplorations, OLD_LISTING } from '../model/notebook';
import { MIME_TYPE } from '../model/types';
import { unpack } from '../model/unpack';
import { sidebarContent } from '../view/sidebar';
import { fixture } from './fixture';

describe('highlight', () => {
  const python =
    '@triton.jit\ndef k(x, n: int = 3):  # comment\n    return f"{x}" + \'a\' + 0x1F\n';
  const cpp =
    '#include <x.h>\nextern "C" void kernel(float* p) { // c\n  auto t = 1.5f; /* b */ }\n';

  it('loses no character', () => {
    expect(
      tokenize(python, 'python')
        .map(t => t.text)
        .join('')
    ).toBe(python);
    expect(
      tokenize(cpp, 'cpp')
        .map(t => t.text)
        .join('')
    ).toBe(cpp);
  });

  it('types keywords, strings, comments, numbers and calls', () => {
    const typed = (source: string, lang: 'python' | 'cpp') =>
      tokenize(source, lang)
        .filter(t => t.type !== 'text')
        .map(t => `${t.type}:${t.text}`);
    expect(typed(python, 'python')).toEqual([
      'deco:@triton.jit',
      'kw:def',
      'fn:k',
      'num:3',
      'com:# comment',
      'kw:return',
      'str:f"{x}"',
      "str:'a'",
      'num:0x1F'
    ]);
    expect(typed(cpp, 'cpp')).toEqual([
      'kw:#include',
      'kw:extern',
      'str:"C"',
      'kw:void',
      'fn:kernel',
      'kw:float',
      'com:// c',
      'kw:auto',
      'num:1.5f',
      'com:/* b */'
    ]);
    expect(languageOf('cpp')).toBe('cpp');
    expect(languageOf('triton')).toBe('python');
  });
});

describe('findExplorations', () => {
  const listed = (label: string, detail: string) => ({
    ...fixture(),
    listing: { label, detail }
  });

  it('lists every tcexplore output, named by the listing Python stored, or says why not', async () => {
    const cells = [
      { executionCount: 4, outputs: [{ data: { 'text/plain': 'x' } }] },
      { executionCount: null, outputs: [] },
      {
        executionCount: 7,
        outputs: [
          {
            data: {
              [MIME_TYPE]: listed(
                'forward',
                '2 compiles · 1 break · 1 recompile · no clear difference · outputs DIFFER'
              )
            }
          },
          { data: { [MIME_TYPE]: { schema: 'tcexplore/2' } } },
          { data: { [MIME_TYPE]: { ...fixture(), listing: undefined } } }
        ]
      }
    ];
    const found = await findExplorations(cells);
    expect(found).toEqual([
      {
        cell: 2,
        execution: 7,
        output: 0,
        label: 'forward',
        detail:
          '2 compiles · 1 break · 1 recompile · no clear difference · outputs DIFFER'
      },
      {
        cell: 2,
        execution: 7,
        output: 1,
        label: 'tcexplore output',
        detail: 'schema tcexplore/2'
      },
      {
        cell: 2,
        execution: 7,
        output: 2,
        label: 'tcexplore output',
        detail: OLD_LISTING
      }
    ]);
  });

  it("numbers the sidebar's rows by the cells' execution counts, as Jupyter does, not their positions", async () => {
    const doc = listed('forward', '1 compile');
    const cells = [
      { executionCount: 12, outputs: [{ data: { [MIME_TYPE]: doc } }] },
      { executionCount: null, outputs: [{ data: { [MIME_TYPE]: doc } }] }
    ];
    const entries = await findExplorations(cells);
    const list = sidebarContent([
      { title: 'session.ipynb', entries, jump: () => undefined }
    ]);
    expect(
      [...list.querySelectorAll('.tcx-sidebar-label')].map(e => e.textContent)
    ).toEqual(['[12] forward', '[ ] forward']);
    expect(
      [...list.querySelectorAll('.tcx-sidebar-entry')].map(e =>
        e.getAttribute('data-cell')
      )
    ).toEqual(['0', '1']);
  });

  it('lists a big output by the listing kept beside its packed compiles', async () => {
    const doc = listed('forward, torch_dynamo_resume_in_f_at_3', '2 compiles');
    const packed = {
      ...doc,
      id: 'big-1',
      compiles: [],
      packed: {
        encoding: 'gzip+base64',
        data: gzipSync(JSON.stringify({ compiles: doc.compiles })).toString(
          'base64'
        )
      }
    };
    const [entry] = await findExplorations([
      { executionCount: 1, outputs: [{ data: { [MIME_TYPE]: packed } }] }
    ]);
    expect(entry.label).toBe('forward, torch_dynamo_resume_in_f_at_3');
    expect(entry.detail).toBe('2 compiles');
  });
});

describe('unpack', () => {
  const inflate = async (bytes: Uint8Array) =>
    gunzipSync(bytes).toString('utf-8');

  it('restores packed compiles and leaves plain documents alone', async () => {
    const doc = fixture();
    const packed = {
      ...doc,
      compiles: [],
      packed: {
        encoding: 'gzip+base64',
        data: gzipSync(JSON.stringify({ compiles: doc.compiles })).toString(
          'base64'
        )
      }
    };
    expect(await unpack(packed, inflate)).toEqual(doc);
    expect(await unpack(doc, inflate)).toBe(doc);
  });

  it('refuses an unknown packing', async () => {
    await expect(
      unpack({ packed: { encoding: 'zstd', data: '' } }, inflate)
    ).rejects.toThrow('unknown packing');
  });
});
