"""The self-contained HTML report of a multi-rank document.

Divergence first (each finding with the ranks that differ, the groups that agree and the
evidence), then the ranks side by side (counts, where each came from and what it lacks),
the compiles of every rank in one table, the collectives, and the ranks' own reports
below, reached from every place that names a rank. Alike ranks (``rank_groups``) share a
column and a report, so hundreds of ranks stay readable; the page holds a bounded number
of reports and lists where the other ranks' documents are. Everything goes through the
escaping of ``markup.py``, as in the one-run report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..common.formatting import plural
from .html import _CSS, render_html
from .markup import (
    Data,
    _c,
    _compile_anchor,
    _details,
    _e,
    _location,
    _note,
    _page,
    _status,
    _table,
)
from .rank_ranges import ranks_text

Documents = Callable[[int], Any]

_RANKS_CSS = """
.tcx-report .tcx-divergence { border-left: 4px solid #cf222e; padding-left: 8px; }
.tcx-report .tcx-none { color: #1a7f37; font-weight: 600; }
.tcx-report .tcx-rank-report { border-top: 2px solid #d0d7de; margin-top: 12px; }
"""


def _rank_anchor(rank: Any) -> str:
    return f"tcx-rank-{_e(rank)}"


class _Layout:
    """Which ranks share a column and a report (``rank_groups``: alike ranks), which
    groups' reports are in the page, and where a rank's link leads (its group's report)."""

    def __init__(self, data: Data, entries: list[Data]):
        groups = [g["ranks"] for g in data.get("rank_groups") or [] if g.get("ranks")]
        listed = {r for g in groups for r in g}
        groups += [[e["rank"]] for e in entries if e["rank"] not in listed]
        self.groups = sorted(groups, key=min)
        self.lead = {r: g[0] for g in self.groups for r in g}  # rank -> its group's first
        self.reported: set[int] = set()  # leads whose report is in the page

    def link(self, rank: Any) -> str:
        return f'<a href="#{_rank_anchor(self.lead.get(rank, rank))}">rank {_e(rank)}</a>'

    def links(self, ranks: list[Any]) -> str:
        """A few ranks as links; many as their ranges, each range linked by its first."""
        if len(ranks) <= MAX_RANK_LINKS:
            return ", ".join(self.link(r) for r in ranks)
        return (
            f'<a href="#{_rank_anchor(self.lead.get(ranks[0], ranks[0]))}">'
            f"{_e(ranks_text(ranks))}</a>"
        )

    def compile_ref(self, rank: Any, compile_id: Any) -> str:
        if compile_id is None:
            return ""
        lead = self.lead.get(rank, rank)
        if lead not in self.reported:
            return _c(compile_id)
        anchor = f"r{int(lead)}-" + _compile_anchor(compile_id)
        return f'<a href="#{_e(anchor)}"><code>{_e(compile_id)}</code></a>'


def _scoped(fragment: str, rank: Any) -> str:
    """A rank's report inside the page: its element ids (all ours, ``tcx-…``) and the links
    to them prefixed per rank. Document text is escaped, so it holds no such attribute."""
    prefix = f"r{int(rank)}-"
    return fragment.replace('id="tcx-', f'id="{prefix}tcx-').replace(
        'href="#tcx-', f'href="#{prefix}tcx-'
    )


def _finding(finding: Data, layout: _Layout) -> str:
    groups = [
        [layout.links(g.get("ranks") or []), _e(g.get("value"))]
        for g in finding.get("groups") or []
    ]
    evidence = [
        [layout.link(e["rank"]) if e.get("rank") is not None else "", _e(e.get("text"))]
        for e in finding.get("evidence") or []
    ]
    odd = finding.get("ranks") or []
    cid = finding.get("compile_id")
    where = ""
    if cid is not None and odd:
        where = " · compile " + layout.compile_ref(odd[0], cid)
    body = "\n".join(
        [
            f"<p>Ranks that differ: {layout.links(odd)}{where}</p>",
            _table(["ranks", "show"], groups, "tcx-groups"),
            _table(["rank", "evidence"], evidence, "tcx-evidence") if evidence else "",
        ]
    )
    summary = f"<code>{_e(finding.get('kind'))}</code> {_e(finding.get('title'))}"
    return _details(summary, body, cls="tcx-sub tcx-divergence", open_=True)


def _divergence(data: Data, layout: _Layout) -> str:
    findings = data.get("divergence") or []
    if findings:
        body = "\n".join(_finding(f, layout) for f in findings)
    else:
        body = '<p class="tcx-none">No divergence.</p>'
    return _details(
        f"Divergence ({len(findings)})", body, cls="tcx-section", open_=True, id_="tcx-divergence"
    )


def _inputs(data: Data) -> str:
    """The files the job was read from, when any was skipped or its rank not said by its
    metadata: the stored line, the files skipped with why, the ranks two files claimed."""
    inputs = data.get("inputs") or {}
    if not inputs.get("line"):
        return ""
    skipped = [
        [
            _c(s.get("path")),
            "" if s.get("rank") is None else f"rank {_e(s['rank'])}",
            _e(s.get("reason")),
        ]
        for s in inputs.get("skipped") or []
    ]
    body = f"<p>{_e(inputs['line'])}</p>" + (
        _table(["file", "rank it claimed", "why it is not read"], skipped, "tcx-skipped")
        if skipped
        else ""
    )
    return _details(
        f"Inputs ({inputs.get('read')} of {plural(inputs.get('files') or 0, 'file')} read)",
        body,
        cls="tcx-section",
        open_=True,
        id_="tcx-inputs",
    )


def _group_header(ranks: list[int]) -> str:
    return ranks_text(ranks) + (" (alike)" if len(ranks) > 1 else "")


def _side_by_side(by_rank: dict[int, Data], layout: _Layout) -> str:
    entries = [by_rank[g[0]] for g in layout.groups]
    keys = list(dict.fromkeys(k for e in entries for k in (e.get("summary") or {})))

    def distributed(entry: Data, key: str) -> str:
        return _e((entry.get("distributed") or {}).get(key))

    rows = [
        ["source"]
        + [
            _e((e.get("source") or {}).get("kind"))
            + " "
            + _c((e.get("source") or {}).get("path"))
            + (" …" if len(g) > 1 else "")
            for e, g in zip(entries, layout.groups)
        ],
        ["rank"] + [_e(e.get("rank_note")) for e in entries],
        ["backend"] + [distributed(e, "backend") for e in entries],
        ["world size"] + [distributed(e, "world_size") for e in entries],
        ["torch"] + [_e((e.get("environment") or {}).get("torch")) for e in entries],
    ]
    rows += [
        [_e(k.replace("_", " "))] + [_e((e.get("summary") or {}).get(k)) for e in entries]
        for k in keys
    ]
    rows.append(
        ["raised"] + [_e(f"{e['error'].get('type')}") if e.get("error") else "" for e in entries]
    )
    rows.append(
        ["not available"]
        + [
            _e(", ".join(u["field"] for u in (e.get("capture") or {}).get("unavailable") or []))
            for e in entries
        ]
    )
    rows.append(["partial"] + [_e((e.get("capture") or {}).get("partial")) for e in entries])
    headers = [""] + [_group_header(g) for g in layout.groups]
    note = (
        _note(
            f"{len(by_rank)} ranks in {plural(len(layout.groups), 'column')}: ranks alike in "
            "compiles, counts, graph breaks, collectives, errors, versions and how their rank "
            "was found share one."
        )
        if len(layout.groups) < len(by_rank)
        else ""
    )
    return _details(
        "Ranks side by side",
        note + _table(headers, rows, "tcx-ranks-table"),
        cls="tcx-section",
        open_=True,
        id_="tcx-ranks",
    )


def _compiles(by_rank: dict[int, Data], layout: _Layout) -> str:
    entries = [by_rank[g[0]] for g in layout.groups]
    ids = list(dict.fromkeys(c["id"] for e in entries for c in e.get("compiles") or []))
    records = [{c["id"]: c for c in e.get("compiles") or []} for e in entries]
    rows = []
    for cid in ids:
        row = [_c(cid)]
        for entry, by_id in zip(entries, records):
            record = by_id.get(cid)
            if record is None:
                row.append('<span class="tcx-muted">—</span>')
                continue
            cell = (
                f"{layout.compile_ref(entry['rank'], cid)} "
                f"{_location(record.get('frame'))} {_status(record.get('status'))}"
            )
            if record.get("graph_nodes") is not None:
                cell += f" · {plural(record['graph_nodes'], 'node')}"
            for guard in record.get("recompile_reasons") or []:
                cell += f"<br>recompiled: <code>{_e(guard)}</code>"
            row.append(cell)
        rows.append(row)
    headers = ["compile"] + [_group_header(g) for g in layout.groups]
    body = _table(headers, rows, "tcx-rank-compiles") if rows else "<p>No compiles.</p>"
    return _details(
        f"Compiles by rank ({len(ids)})", body, cls="tcx-section", id_="tcx-rank-compiles"
    )


def _collectives(by_rank: dict[int, Data], layout: _Layout) -> str:
    rows = [
        [
            layout.links(g),
            _c(c.get("compile_id")),
            _e(c.get("graph")),
            _e(" → ".join(c.get("ops") or [])),
        ]
        for g in layout.groups
        for c in by_rank[g[0]].get("collectives") or []
    ]
    body = (
        _table(["ranks", "compile", "read from", "collectives in order"], rows, "tcx-collectives")
        if rows
        else "<p>No collectives in any compiled graph (eager collectives, such as DDP's "
        "bucketed all-reduces and FSDP's hooks, run outside the graphs).</p>"
    )
    return _details(
        "Collectives in compiled graphs", body, cls="tcx-section", id_="tcx-collectives"
    )


# The page holds one report per group of alike ranks, up to these bounds (divergent groups,
# the smaller ones, first); the others are listed with where their documents are.
MAX_RANK_REPORTS = 8
MAX_REPORTS_CHARS = 20_000_000
OLD_HEADLINE = (
    "This document was saved before tcexplore stored its headline: tcexplore.load() computes it."
)
MAX_RANK_LINKS = 8  # ranks named one by one; more are written as ranges


def _rank_reports(
    by_rank: dict[int, Data], layout: _Layout, documents: Documents, summary_only: bool
) -> str:
    parts, left, size = [], [], 0
    for group in sorted(layout.groups, key=len):  # the odd ranks before the many alike
        lead = group[0]
        document = None
        if len(layout.reported) < MAX_RANK_REPORTS and size < MAX_REPORTS_CHARS:
            document = documents(lead)
        if document is None:
            left.append(group)
            continue
        body = _scoped(render_html(document, full_page=False, summary_only=summary_only), lead)
        size += len(body)
        layout.reported.add(lead)
        title = f"Rank {_e(lead)}" + (
            f" (for {_e(ranks_text(group))}, alike)" if len(group) > 1 else ""
        )
        report = (
            f'<div class="tcx-rank-report" id="{_rank_anchor(lead)}"><h2>{title}</h2>\n{body}</div>'
        )
        parts.append((lead, report))
    parts.sort()
    if left:
        parts.append((-1, _reports_left_out(left, by_rank)))
    return "\n".join(part for _, part in parts)


def _reports_left_out(groups: list[list[int]], by_rank: dict[int, Data]) -> str:
    rows = []
    for group in sorted(groups, key=min):
        entry = by_rank[group[0]]
        left = entry.get("document_left_out") or {}
        where = entry.get("document_path") or (entry.get("source") or {}).get("path")
        rows.append(
            [
                f'<span id="{_rank_anchor(group[0])}">{_e(ranks_text(group))}</span>',
                _c(where) if where else _e(left.get("reason", "not at hand")),
            ]
        )
    note = _note(
        f"This page holds at most {MAX_RANK_REPORTS} rank reports "
        f"({MAX_REPORTS_CHARS // 1_000_000} MB); open a rank's document with "
        "tcexplore.load() or in JupyterLab, or write its report with "
        'tcexplore.load(PATH).save("rank.html").'
    )
    return _details(
        f"Ranks without a report here ({sum(map(len, groups))})",
        note + _table(["ranks", "document"], rows, "tcx-reports-left-out"),
        cls="tcx-section",
        open_=True,
        id_="tcx-reports-left-out",
    )


def render_ranks_html(
    data: Data, documents: Documents, *, full_page: bool = True, summary_only: bool = False
) -> str:
    """The report of a multi-rank document; ``documents(rank)`` gives a rank's document or
    None. ``summary_only`` keeps each rank's report to its overview and graph breaks
    (notebook outputs)."""
    entries = [e for e in data.get("ranks") or [] if isinstance(e, dict)]
    by_rank = {e["rank"]: e for e in entries}
    layout = _Layout(data, entries)
    reports = _rank_reports(by_rank, layout, documents, summary_only)
    fragment = "\n".join(
        [
            '<div class="tcx-report tcx-ranks-report">',
            f"<style>{_CSS}{_RANKS_CSS}</style>",
            f"<h1>torch.compile across {plural(len(entries), 'rank')}"
            + (f" (world size {_e(data['world_size'])})" if data.get("world_size") else "")
            + "</h1>",
            f'<p class="tcx-ranks-headline">{_e(data["headline"])}</p>'
            if isinstance(data.get("headline"), str)
            else _note(OLD_HEADLINE),
            _divergence(data, layout),
            _inputs(data),
            _side_by_side(by_rank, layout),
            _compiles(by_rank, layout),
            _collectives(by_rank, layout),
            reports,
            "</div>",
        ]
    )
    return _page(fragment, "tcexplore: ranks") if full_page else fragment
