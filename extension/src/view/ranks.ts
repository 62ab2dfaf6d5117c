/**
 * The Ranks view of a multi-rank document: a "Ranks" tab with the divergence findings
 * first, then the ranks side by side; and one tab per group of alike ranks ("Ranks 0-62")
 * holding its first rank's own explorer, opened from its (possibly packed) document when
 * it travelled with the view. Every rank and compile a finding names links to the
 * explorer of that rank's group.
 */

import {
  compileGrid,
  groupLabel,
  groupLead,
  groupLeads,
  headline,
  OLD_HEADLINE_NOTE,
  leftOut,
  normalizeRanks,
  RankEntry,
  RankFinding,
  RankInputs,
  RanksDocument,
  ranksText,
  sideBySide
} from '../model/ranks';
import { plural } from '../model/format';
import { Target } from '../model/types';
import { Inflate, inflateGzip, unpack } from '../model/unpack';
import { Host } from './context';
import { el, link, note, table } from './dom';
import { createExplorer } from './explorer';
import { Tabs } from './tabs';

type OpenRank = (
  rank: number,
  compileId?: string | null,
  kind?: string
) => void;

/** Ranks named one by one; beyond this many, as one linked range. */
const MAX_RANK_LINKS = 8;

function rankLinks(ranks: number[], open: OpenRank): HTMLElement {
  const span = el('span', { class: 'tcx-rank-links' });
  if (ranks.length > MAX_RANK_LINKS) {
    span.append(
      link(
        ranksText(ranks),
        () => open(ranks[0]),
        `open rank ${ranks[0]}'s explorer`
      )
    );
    return span;
  }
  ranks.forEach((rank, i) =>
    span.append(
      i ? ', ' : '',
      link(`rank ${rank}`, () => open(rank), `open rank ${rank}'s explorer`)
    )
  );
  return span;
}

function findingView(finding: RankFinding, open: OpenRank): HTMLElement {
  const first = finding.ranks[0];
  const where =
    finding.compile_id !== null && first !== undefined
      ? el(
          'span',
          null,
          ' · ',
          link(`compile ${finding.compile_id} on rank ${first}`, () =>
            open(first, finding.compile_id, finding.kind)
          )
        )
      : null;
  return el(
    'li',
    {
      class: 'tcx-finding tcx-divergence',
      attrs: { 'data-kind': finding.kind }
    },
    el(
      'div',
      null,
      el('span', { class: 'tcx-badge' }, finding.kind),
      ' ',
      el('strong', null, finding.title)
    ),
    el(
      'div',
      { class: 'tcx-muted' },
      'differs: ',
      rankLinks(finding.ranks, open),
      where
    ),
    table(
      ['ranks', 'show'],
      finding.groups.map(g => [rankLinks(g.ranks, open), g.value]),
      'tcx-groups'
    ),
    finding.evidence.length
      ? table(
          ['rank', 'evidence'],
          finding.evidence.map(e => [
            e.rank === null ? '' : link(`rank ${e.rank}`, () => open(e.rank!)),
            e.text
          ]),
          'tcx-evidence'
        )
      : null
  );
}

/** Each compile across the groups of ranks: its status and recompiles in each, linked to that group's explorer. */
function compileRows(
  doc: RanksDocument,
  leads: RankEntry[],
  open: OpenRank
): HTMLElement[][] {
  return compileGrid(doc).map(row => [
    el('code', null, row.id),
    ...row.cells.map((cell, i) =>
      cell
        ? el(
            'span',
            null,
            link(cell.text, () => open(leads[i].rank, row.id)),
            ' ',
            el(
              'span',
              { class: `tcx-status tcx-status-${cell.status}` },
              cell.status
            ),
            ...cell.recompiles.map(r =>
              el(
                'div',
                { class: 'tcx-recompiled' },
                'recompiled: ',
                el('code', null, r)
              )
            )
          )
        : el('span', { class: 'tcx-muted' }, '—')
    )
  ]);
}

function overview(doc: RanksDocument, open: OpenRank): HTMLElement {
  const findings = doc.divergence.length
    ? el(
        'ul',
        { class: 'tcx-findings tcx-divergences' },
        ...doc.divergence.map(f => findingView(f, open))
      )
    : el('p', { class: 'tcx-ok' }, 'No divergence across the ranks.');
  const leads = groupLeads(doc);
  const headers = ['', ...doc.rank_groups.map(groupLabel)];
  const ranksRow: HTMLElement[] = leads.map(e =>
    link(`open rank ${e.rank}`, () => open(e.rank))
  );
  const rows = sideBySide(doc).map(([label, values]) => [label, ...values]);
  const grid = compileRows(doc, leads, open);
  const collectives = leads.flatMap((e, i) =>
    e.collectives.map(c => [
      ranksText(doc.rank_groups[i]),
      c.compile_id,
      c.graph,
      c.ops.join(' → ')
    ])
  );
  const grouped =
    doc.rank_groups.length < doc.ranks.length
      ? note(
          `${doc.ranks.length} ranks in ${plural(doc.rank_groups.length, 'column')}: ranks alike in compiles, counts, graph breaks, collectives, errors, versions and how their rank was found share one, and one tab.`,
          'tcx-muted'
        )
      : null;
  return el(
    'div',
    { class: 'tcx-ranks' },
    headline(doc) === null
      ? note(OLD_HEADLINE_NOTE)
      : el('p', { class: 'tcx-ranks-headline' }, headline(doc)),
    el('h3', null, `Divergence (${doc.divergence.length})`),
    findings,
    inputsView(doc.inputs),
    el('h3', null, 'Ranks side by side'),
    grouped,
    table(headers, [['', ...ranksRow], ...rows], 'tcx-ranks-table'),
    el('h3', null, 'Compiles by rank'),
    grid.length
      ? table(['compile', ...headers.slice(1)], grid, 'tcx-rank-compiles')
      : note('No compiles on any rank.'),
    el('h3', null, 'Collectives in compiled graphs'),
    collectives.length
      ? table(
          ['ranks', 'compile', 'read from', 'collectives in order'],
          collectives,
          'tcx-collectives'
        )
      : note(
          "No collectives in any compiled graph (collectives run eagerly, such as DDP's bucketed all-reduces and FSDP's hooks, are outside the graphs).",
          'tcx-muted'
        )
  );
}

/** The files the job was read from, when one was skipped or a rank not read as its
 * metadata says: the stored line, and each skipped file with why. */
function inputsView(inputs: RankInputs | null): HTMLElement | null {
  if (!inputs?.line) {
    return null;
  }
  return el(
    'div',
    { class: 'tcx-rank-inputs' },
    el(
      'h3',
      null,
      `Inputs (${inputs.read} of ${plural(inputs.files, 'file')} read)`
    ),
    el('p', null, inputs.line),
    inputs.skipped.length
      ? table(
          ['file', 'rank it claimed', 'why it is not read'],
          inputs.skipped.map(s => [
            el('code', null, s.path),
            s.rank === null ? '' : `rank ${s.rank}`,
            s.reason
          ]),
          'tcx-skipped'
        )
      : null
  );
}

/** Where a finding sends the reader inside a rank's explorer. */
function targetFor(
  doc: unknown,
  compileId: string | null | undefined,
  kind: string | undefined
): Target | undefined {
  const compiles = (
    doc as { compiles?: Array<{ id?: string; dynamo_graph?: unknown }> }
  ).compiles;
  const index = Array.isArray(compiles)
    ? compiles.findIndex(c => c?.id === compileId)
    : -1;
  if (index < 0) {
    return undefined;
  }
  return kind === 'graph' && compiles![index].dynamo_graph
    ? { tab: 'graphs', compile: index, graph: 'dynamo' }
    : { tab: 'guards', compile: index };
}

class RankPane {
  readonly element = el('div', { class: 'tcx-rank-pane' });

  constructor(
    private entry: RankEntry,
    private inflate: Inflate,
    private host?: Host
  ) {}

  show(compileId?: string | null, kind?: string): void {
    const missing = leftOut(this.entry);
    if (missing) {
      this.element.replaceChildren(note(missing));
      return;
    }
    this.element.replaceChildren(
      note(`Opening rank ${this.entry.rank}…`, 'tcx-muted')
    );
    unpack(this.entry.document, this.inflate).then(
      doc =>
        this.element.replaceChildren(
          createExplorer(doc, {
            start: targetFor(doc, compileId, kind),
            host: this.host
          })
        ),
      error =>
        this.element.replaceChildren(
          el(
            'p',
            { class: 'tcx-error' },
            `Rank ${this.entry.rank}'s document could not be read: ${String(error)}`
          )
        )
    );
  }
}

/** The multi-rank view; `host` reaches each rank's explorer ("Open as cell"). */
export function createRanksView(
  data: unknown,
  host?: Host,
  inflate: Inflate = inflateGzip
): HTMLElement {
  const doc = normalizeRanks(data);
  const leads = groupLeads(doc);
  const leadOf = groupLead(doc);
  const panes = new Map(
    leads.map(e => [e.rank, new RankPane(e, inflate, host)])
  );
  const open: OpenRank = (rank, compileId, kind) => {
    const lead = leadOf.get(rank) ?? rank;
    const pane = panes.get(lead);
    if (!pane) {
      return;
    }
    tabs.select(`rank-${lead}`);
    if (compileId) {
      pane.show(compileId, kind);
    }
  };
  const tabs: Tabs = new Tabs([
    {
      id: 'ranks',
      label: doc.divergence.length
        ? `Ranks (${doc.divergence.length} divergent)`
        : 'Ranks',
      build: () => overview(doc, open)
    },
    ...leads.map((e, i) => ({
      id: `rank-${e.rank}`,
      label:
        doc.rank_groups[i].length > 1
          ? `Ranks ${ranksText(doc.rank_groups[i]).slice('ranks '.length)}`
          : `Rank ${e.rank}`,
      build: () => {
        const pane = panes.get(e.rank)!;
        pane.show();
        return pane.element;
      }
    }))
  ]);
  tabs.select('ranks');
  return el(
    'div',
    {
      class: 'tcx-explorer tcx-ranks-view',
      attrs: {
        'aria-label': `tcexplore: ${ranksText(doc.ranks.map(e => e.rank))}`
      }
    },
    tabs.element
  );
}
