import { gunzipSync, gzipSync } from 'zlib';
import { findExplorations } from '../model/notebook';
import { origin } from '../model/overview';
import {
  compileGrid,
  headline,
  isRanksDocument,
  OLD_HEADLINE_NOTE,
  normalizeRanks,
  ranksText,
  sideBySide
} from '../model/ranks';
import { MIME_TYPE, TcxDocument } from '../model/types';
import { createExplorer } from '../view/explorer';
import { createRanksView } from '../view/ranks';
import { fixture } from './fixture';

const inflate = async (bytes: Uint8Array) =>
  gunzipSync(bytes).toString('utf-8');
const flush = () => new Promise(resolve => setTimeout(resolve, 0));

/** Rank 0 as the fixture; rank 1 recompiled compile 0/1 (what tests/dist_programs/rank_step.py shows). */
function rankDocument(rank: number): TcxDocument {
  const doc = fixture();
  (doc as any).distributed = {
    rank,
    world_size: 2,
    backend: 'gloo',
    source: 'process_group'
  };
  if (rank === 0) {
    doc.compiles = doc.compiles.slice(0, 1);
  }
  return doc;
}

function entry(
  rank: number,
  document: unknown,
  left: { reason: string; bytes: number } | null = null
) {
  const doc = rankDocument(rank);
  return {
    rank,
    source: { kind: 'document', path: `out.rank${rank}.json` },
    distributed: (doc as any).distributed,
    environment: { torch: '2.13.0' },
    capture: { source: 'live' },
    summary: doc.summary,
    compiles: doc.compiles.map(c => ({
      id: c.id,
      frame: c.frame,
      status: c.status,
      graph_nodes: c.dynamo_graph ? c.dynamo_graph.nodes.length : null,
      recompile_reasons: c.recompile_reasons.flat().map(r => r.guard)
    })),
    graph_breaks: [],
    collectives: [
      {
        compile_id: '0/0',
        graph: 'inductor schedule',
        ops: ['all_reduce', 'wait_tensor']
      }
    ],
    error: null,
    document,
    document_left_out: left
  };
}

function ranksFixture(): Record<string, unknown> {
  const packedDoc = rankDocument(1);
  const packed = {
    ...packedDoc,
    compiles: [],
    packed: {
      encoding: 'gzip+base64',
      data: gzipSync(JSON.stringify({ compiles: packedDoc.compiles })).toString(
        'base64'
      )
    }
  };
  return {
    schema: 'tcexplore/1',
    kind: 'ranks',
    created: '2026-01-01T00:00:00+00:00',
    world_size: 2,
    ranks: [entry(0, rankDocument(0)), entry(1, packed)],
    divergence: [
      {
        kind: 'recompile',
        ranks: [1],
        compile_id: '0/1',
        title: 'rank 1 recompiled `forward` (compile 0/1); rank 0 did not',
        groups: [
          { ranks: [0], value: 'no compile 0/1' },
          {
            ranks: [1],
            value:
              "recompiled: tensor 'x' size mismatch at index 0. expected 8, actual 16"
          }
        ],
        evidence: [
          {
            rank: 1,
            text: "tensor 'x' size mismatch at index 0. expected 8, actual 16 (guard of compile 0/0)"
          }
        ]
      }
    ],
    headline: '2 ranks of world size 2: 1 divergence finding',
    listing: { label: '2 ranks side by side', detail: '1 divergence' }
  };
}

function tab(root: HTMLElement, id: string): HTMLButtonElement {
  return root.querySelector(
    `[role=tab][data-tab="${id}"]`
  ) as HTMLButtonElement;
}

function panel(root: HTMLElement, id: string): HTMLElement {
  return root.querySelector(`[role=tabpanel][data-tab="${id}"]`) as HTMLElement;
}

describe('ranks model', () => {
  it('tells a multi-rank document from a one-run document', () => {
    expect(isRanksDocument(ranksFixture())).toBe(true);
    expect(isRanksDocument(fixture())).toBe(false);
  });

  it('reads ranks side by side and compiles by rank', () => {
    const doc = normalizeRanks(ranksFixture());
    expect(headline(doc)).toBe('2 ranks of world size 2: 1 divergence finding');
    const rows = new Map(sideBySide(doc));
    expect(rows.get('backend')).toEqual(['gloo', 'gloo']);
    expect(rows.get('recompiles')).toEqual(['1', '1']);
    const grid = compileGrid(doc);
    expect(grid.map(r => r.id)).toEqual(['0/0', '0/1']);
    expect(grid[1].cells[0]).toBeNull();
    expect(grid[1].cells[1]?.recompiles[0]).toContain('size mismatch');
    expect(ranksText([0, 1, 2, 5])).toBe('ranks 0-2, 5');
  });

  it('survives a partial document', () => {
    const doc = normalizeRanks({
      schema: 'tcexplore/1',
      kind: 'ranks',
      ranks: [{ rank: 3 }],
      divergence: 'nonsense'
    });
    expect(doc.ranks[0].compiles).toEqual([]);
    expect(doc.divergence).toEqual([]);
    expect(headline(doc)).toBeNull(); // saved before it was stored: the view says so
    expect(createRanksView(doc).textContent).toContain(OLD_HEADLINE_NOTE);
  });

  it('labels a multi-rank output in the sidebar', async () => {
    const [found] = await findExplorations([
      {
        executionCount: 1,
        outputs: [{ data: { [MIME_TYPE]: ranksFixture() } }]
      }
    ]);
    expect(found.label).toBe('2 ranks side by side');
    expect(found.detail).toBe('1 divergence');
  });
});

describe('ranks view', () => {
  it('shows the divergence first, then the ranks side by side', () => {
    const root = createRanksView(ranksFixture(), undefined, inflate);
    expect(
      [...root.querySelectorAll('[role=tab]')].map(t => t.textContent)
    ).toEqual(['Ranks (1 divergent)', 'Rank 0', 'Rank 1']);
    const text = panel(root, 'ranks').textContent ?? '';
    expect(text.indexOf('rank 1 recompiled')).toBeLessThan(
      text.indexOf('Ranks side by side')
    );
    expect(text).toContain('expected 8, actual 16');
    expect(text).toContain('all_reduce → wait_tensor');
    expect(panel(root, 'rank-0').childElementCount).toBe(0); // built when opened
  });

  it("opens a rank's own explorer, unpacking its document", async () => {
    const root = createRanksView(ranksFixture(), undefined, inflate);
    tab(root, 'rank-1').click();
    await flush();
    const explorer = panel(root, 'rank-1').querySelector('.tcx-explorer');
    expect(explorer).not.toBeNull();
    expect(explorer!.textContent).toContain('rank 1 of 2 (gloo)');
  });

  it("goes from a finding to the recompile in that rank's explorer", async () => {
    const root = createRanksView(ranksFixture(), undefined, inflate);
    const go = [...panel(root, 'ranks').querySelectorAll('.tcx-link')].find(
      b => b.textContent === 'compile 0/1 on rank 1'
    ) as HTMLButtonElement;
    go.click();
    await flush();
    expect(tab(root, 'rank-1').getAttribute('aria-selected')).toBe('true');
    const explorer = panel(root, 'rank-1').querySelector('.tcx-explorer')!;
    const guards = explorer.querySelector('[role=tab][data-tab=guards]')!;
    expect(guards.getAttribute('aria-selected')).toBe('true');
    expect(
      explorer.querySelector('[data-compile="0/1"]')?.textContent
    ).toContain('size mismatch');
  });

  it("says why a rank's document is not there", () => {
    const data = ranksFixture() as any;
    data.ranks[0] = entry(0, null, {
      reason:
        'the embedded rank documents would exceed 50,000,000 bytes; open out.rank0.json',
      bytes: 62_000_000
    });
    const root = createRanksView(data, undefined, inflate);
    tab(root, 'rank-0').click();
    expect(panel(root, 'rank-0').textContent).toContain(
      'not in this output (62.0 MB)'
    );
    expect(panel(root, 'rank-0').textContent).toContain('open out.rank0.json');
  });

  it('shows 64 ranks as their groups of alike ranks: one column and one tab each', async () => {
    const data = ranksFixture() as any;
    const alike = data.ranks[0];
    data.ranks = [
      ...Array.from({ length: 63 }, (_, rank) => ({ ...alike, rank })),
      { ...data.ranks[1], rank: 63 }
    ];
    data.rank_groups = [
      { ranks: Array.from({ length: 63 }, (_, r) => r), label: 'ranks 0-62' },
      { ranks: [63], label: 'rank 63' }
    ];
    data.divergence[0].ranks = [63];
    data.divergence[0].groups = [
      {
        ranks: Array.from({ length: 63 }, (_, r) => r),
        value: 'no compile 0/1'
      },
      { ranks: [63], value: 'recompiled' }
    ];
    const root = createRanksView(data, undefined, inflate);
    expect(
      [...root.querySelectorAll('[role=tab]')].map(t => t.textContent)
    ).toEqual(['Ranks (1 divergent)', 'Ranks 0-62', 'Rank 63']);
    const overview = panel(root, 'ranks');
    expect(
      [...overview.querySelectorAll('.tcx-ranks-table th')].map(
        th => th.textContent
      )
    ).toEqual(['', 'ranks 0-62 (alike)', 'rank 63']);
    expect(overview.textContent).toContain('64 ranks in 2 columns');
    const range = [...overview.querySelectorAll('.tcx-groups .tcx-link')].find(
      b => b.textContent === 'ranks 0-62'
    ) as HTMLButtonElement;
    range.click(); // many ranks: one link, to their group's tab
    await flush();
    expect(tab(root, 'rank-0').getAttribute('aria-selected')).toBe('true');
  });

  it('draws what Python stored of a folder read with stray files and two files of one rank', () => {
    const data = ranksFixture() as any;
    const line =
      'read 2 of 4 files as ranks 0, 1; rank 1 from its file name; 2 files claim rank 0: 1 read as rank 1, as its file name says; skipped 1: notes.txt (not a TORCH_TRACE log)';
    data.headline =
      '2 ranks of world size 2: 2 divergence findings; the inputs held more than one file for rank 0; 1 file skipped, each with why';
    data.inputs = {
      files: 4,
      read: 2,
      skipped: [
        {
          path: 'trace/notes.txt',
          reason: 'not a TORCH_TRACE log',
          rank: null
        },
        {
          path: 'trace/dedicated_log_torch_trace_rank_0_old.log',
          reason: 'a second file of rank 0',
          rank: 0
        }
      ],
      conflicts: [],
      line
    };
    data.ranks[1].rank_from = 'file_name';
    data.ranks[1].rank_note =
      'from its file name: its metadata says rank 0, as dedicated_log_torch_trace_rank_0.log does';
    const doc = normalizeRanks(data);
    expect(headline(doc)).toBe(data.headline); // drawn, not decided again
    expect(new Map(sideBySide(doc)).get('rank')).toEqual([
      '',
      data.ranks[1].rank_note
    ]);
    const overview = panel(createRanksView(data, undefined, inflate), 'ranks');
    expect(overview.querySelector('.tcx-ranks-headline')?.textContent).toBe(
      data.headline
    );
    const inputs = overview.querySelector('.tcx-rank-inputs')!;
    expect(inputs.querySelector('h3')?.textContent).toBe(
      'Inputs (2 of 4 files read)'
    );
    expect(inputs.textContent).toContain(line);
    expect(
      [...inputs.querySelectorAll('.tcx-skipped tbody tr')].map(r =>
        [...r.querySelectorAll('td')].map(td => td.textContent)
      )
    ).toEqual([
      ['trace/notes.txt', '', 'not a TORCH_TRACE log'],
      [
        'trace/dedicated_log_torch_trace_rank_0_old.log',
        'rank 0',
        'a second file of rank 0'
      ]
    ]);
    const text = overview.textContent ?? '';
    expect(text.indexOf('Inputs (')).toBeLessThan(
      text.indexOf('Ranks side by side')
    );
  });

  it('says nothing of its inputs when every file was read as its metadata says', () => {
    const data = ranksFixture() as any;
    data.inputs = { files: 2, read: 2, skipped: [], conflicts: [], line: null };
    const overview = panel(createRanksView(data, undefined, inflate), 'ranks');
    expect(overview.querySelector('.tcx-rank-inputs')).toBeNull();
  });

  it('never turns document text into markup', () => {
    const data = ranksFixture() as any;
    const evil = '<img src=x onerror="window.pwned=1">';
    data.divergence[0].title = evil;
    data.divergence[0].evidence[0].text = evil;
    data.ranks[0].compiles[0].frame.function = evil;
    data.headline = evil;
    data.inputs = {
      files: 1,
      read: 1,
      skipped: [{ path: evil, reason: evil, rank: null }],
      line: evil
    };
    data.ranks[0].rank_note = evil;
    const root = createRanksView(data, undefined, inflate);
    expect(root.querySelector('img')).toBeNull();
    expect(root.textContent).toContain(evil);
  });
});

describe('a document read from a TORCH_TRACE log', () => {
  it('says where it came from and what it cannot hold', () => {
    const doc = fixture();
    doc.capture = {
      source: 'trace',
      bypass_caches: null,
      events: 900,
      path: 'trace/dedicated_log_torch_trace_rank_1_x.log',
      partial: 'the log ends inside the payload of the event on line 900',
      unavailable: [
        {
          field: 'compiles[].cudagraphs',
          reason:
            "CUDA-graph decisions are messages of torch's `cudagraphs` log, which TORCH_TRACE does not record"
        }
      ]
    };
    expect(origin(doc).line).toContain(
      'read from the TORCH_TRACE log trace/dedicated_log_torch_trace_rank_1_x.log'
    );
    const root = createExplorer(doc);
    const overview = root.querySelector('[role=tabpanel][data-tab=overview]')!;
    expect(overview.querySelector('[role=alert]')?.textContent).toContain(
      'Partial document'
    );
    expect(overview.textContent).toContain(
      'Not available in this document (1)'
    );
    (
      root.querySelector('[role=tab][data-tab=cudagraphs]') as HTMLButtonElement
    ).click();
    expect(
      root.querySelector('[role=tabpanel][data-tab=cudagraphs]')!.textContent
    ).toContain('CUDA-graph data is not available in this document');
  });

  it('lists the events it could not read, as Python stored them, escaped', () => {
    const doc = fixture();
    const evil = '<img src=x onerror="window.pwned=1">';
    doc.capture = {
      source: 'trace',
      bypass_caches: null,
      events: 900,
      path: 'damaged.log',
      partial: null,
      unread: {
        events: 2,
        counts: {
          bad_json: 1,
          bad_envelope: 0,
          handler: 1,
          section: 0,
          finding: 0
        },
        items: [
          {
            reason: 'bad_json',
            kind: 'chromium_event',
            compile: null,
            line: 72,
            error: "the event's JSON does not parse",
            excerpt: evil
          },
          {
            reason: 'handler',
            kind: 'inductor_output_code',
            compile: '0/0',
            line: 90,
            error: 'RuntimeError: boom',
            excerpt: 'def call(args):'
          }
        ]
      }
    };
    expect(origin(doc).unread?.title).toBe(
      'Unread events (2; bad_json 1, handler 1)'
    );
    const overview = createExplorer(doc).querySelector(
      '[role=tabpanel][data-tab=overview]'
    )!;
    const rows = [...overview.querySelectorAll('.tcx-unread tbody tr')].map(r =>
      [...r.querySelectorAll('td')].map(td => td.textContent)
    );
    expect(rows).toEqual([
      [
        'bad_json',
        'chromium_event',
        '',
        '72',
        "the event's JSON does not parse",
        evil
      ],
      [
        'handler',
        'inductor_output_code',
        '0/0',
        '90',
        'RuntimeError: boom',
        'def call(args):'
      ]
    ]);
    expect(overview.querySelector('img')).toBeNull();
    doc.capture = {
      source: 'live',
      bypass_caches: true,
      events: 10,
      unread: { events: 0, counts: {}, items: [] }
    };
    expect(origin(doc).unread).toBeNull();
  });
});
