"""The self-contained HTML report of a multi-rank document.

Divergence first (each finding with the ranks that differ, the groups that agree and the
evidence), then the ranks side by side (counts, where each came from and what it lacks),
the compiles of every rank in one table, the collectives, and each rank's own report
below, reached from every place that names a rank. Everything goes through the escaping of
``markup.py``, as in the one-run report.
"""

from __future__ import annotations

from typing import Any, Callable

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
    _plural,
    _status,
    _table,
)

Documents = Callable[[int], Any]

_RANKS_CSS = """
.tcx-report .tcx-divergence { border-left: 4px solid #cf222e; padding-left: 8px; }
.tcx-report .tcx-none { color: #1a7f37; font-weight: 600; }
.tcx-report .tcx-rank-report { border-top: 2px solid #d0d7de; margin-top: 12px; }
"""


def _rank_anchor(rank: Any) -> str:
    return f"tcx-rank-{_e(rank)}"


def _rank_link(rank: Any) -> str:
    return f'<a href="#{_rank_anchor(rank)}">rank {_e(rank)}</a>'


def _ranks_links(ranks: list[Any]) -> str:
    return ", ".join(_rank_link(r) for r in ranks)


def _scoped(fragment: str, rank: Any) -> str:
    """A rank's report inside the page: its element ids (all ours, ``tcx-…``) and the links
    to them prefixed per rank. Document text is escaped, so it holds no such attribute."""
    prefix = f"r{int(rank)}-"
    return (fragment.replace('id="tcx-', f'id="{prefix}tcx-')
            .replace('href="#tcx-', f'href="#{prefix}tcx-'))


def _compile_ref(rank: Any, compile_id: Any, has_report: bool) -> str:
    if compile_id is None:
        return ""
    if not has_report:
        return _c(compile_id)
    anchor = f"r{int(rank)}-" + _compile_anchor(compile_id)
    return f'<a href="#{_e(anchor)}"><code>{_e(compile_id)}</code></a>'


def _finding(finding: Data, reported: set[int]) -> str:
    groups = [[_ranks_links(g.get("ranks") or []), _e(g.get("value"))]
              for g in finding.get("groups") or []]
    evidence = [[_rank_link(e["rank"]) if e.get("rank") is not None else "", _e(e.get("text"))]
                for e in finding.get("evidence") or []]
    odd = finding.get("ranks") or []
    cid = finding.get("compile_id")
    where = ""
    if cid is not None and odd:
        where = " · compile " + _compile_ref(odd[0], cid, odd[0] in reported)
    body = "\n".join([
        f"<p>Ranks that differ: {_ranks_links(odd)}{where}</p>",
        _table(["ranks", "show"], groups, "tcx-groups"),
        _table(["rank", "evidence"], evidence, "tcx-evidence") if evidence else "",
    ])
    summary = f"<code>{_e(finding.get('kind'))}</code> {_e(finding.get('title'))}"
    return _details(summary, body, cls="tcx-sub tcx-divergence", open_=True)


def _divergence(data: Data, reported: set[int]) -> str:
    findings = data.get("divergence") or []
    if findings:
        body = "\n".join(_finding(f, reported) for f in findings)
    else:
        body = (f'<p class="tcx-none">No divergence across {_plural(len(data.get("ranks") or []), "rank")}: '
                "the same compile ids, recompiles, graph breaks, Dynamo graphs, collectives, "
                "compile results, cache results and versions.</p>")
    return _details(f"Divergence ({len(findings)})", body, cls="tcx-section", open_=True,
                    id_="tcx-divergence")


def _side_by_side(entries: list[Data]) -> str:
    keys = list(dict.fromkeys(k for e in entries for k in (e.get("summary") or {})))

    def distributed(entry: Data, key: str) -> str:
        return _e((entry.get("distributed") or {}).get(key))

    rows = [
        ["source"] + [_e((e.get("source") or {}).get("kind")) + " "
                      + _c((e.get("source") or {}).get("path")) for e in entries],
        ["backend"] + [distributed(e, "backend") for e in entries],
        ["world size"] + [distributed(e, "world_size") for e in entries],
        ["torch"] + [_e((e.get("environment") or {}).get("torch")) for e in entries],
    ]
    rows += [[_e(k.replace("_", " "))] + [_e((e.get("summary") or {}).get(k)) for e in entries]
             for k in keys]
    rows.append(["raised"] + [_e(f"{e['error'].get('type')}") if e.get("error") else ""
                              for e in entries])
    rows.append(["not available"] + [
        _e(", ".join(u["field"] for u in (e.get("capture") or {}).get("unavailable") or []))
        for e in entries])
    rows.append(["partial"] + [_e((e.get("capture") or {}).get("partial")) for e in entries])
    headers = [""] + [f"rank {e.get('rank')}" for e in entries]
    return _details("Ranks side by side", _table(headers, rows, "tcx-ranks-table"),
                    cls="tcx-section", open_=True, id_="tcx-ranks")


def _compiles(entries: list[Data], reported: set[int]) -> str:
    ids = list(dict.fromkeys(c["id"] for e in entries for c in e.get("compiles") or []))
    by_rank = {e["rank"]: {c["id"]: c for c in e.get("compiles") or []} for e in entries}
    rows = []
    for cid in ids:
        row = [_c(cid)]
        for entry in entries:
            record = by_rank[entry["rank"]].get(cid)
            if record is None:
                row.append('<span class="tcx-muted">—</span>')
                continue
            cell = (f"{_compile_ref(entry['rank'], cid, entry['rank'] in reported)} "
                    f"{_location(record.get('frame'))} {_status(record.get('status'))}")
            if record.get("graph_nodes") is not None:
                cell += f" · {_plural(record['graph_nodes'], 'node')}"
            for guard in record.get("recompile_reasons") or []:
                cell += f"<br>recompiled: <code>{_e(guard)}</code>"
            row.append(cell)
        rows.append(row)
    headers = ["compile"] + [f"rank {e['rank']}" for e in entries]
    body = _table(headers, rows, "tcx-rank-compiles") if rows else "<p>No compiles.</p>"
    return _details(f"Compiles by rank ({len(ids)})", body, cls="tcx-section",
                    id_="tcx-rank-compiles")


def _collectives(entries: list[Data]) -> str:
    rows = [[_rank_link(e["rank"]), _c(c.get("compile_id")), _e(c.get("graph")),
             _e(" → ".join(c.get("ops") or []))]
            for e in entries for c in e.get("collectives") or []]
    body = (_table(["rank", "compile", "read from", "collectives in order"], rows,
                   "tcx-collectives") if rows else
            "<p>No collectives in any compiled graph (eager collectives, such as DDP's "
            "bucketed all-reduces and FSDP's hooks, run outside the graphs).</p>")
    return _details("Collectives in compiled graphs", body, cls="tcx-section",
                    id_="tcx-collectives")


def _rank_reports(entries: list[Data], documents: Documents,
                  summary_only: bool) -> tuple[str, set[int]]:
    parts, reported = [], set()
    for entry in entries:
        rank = entry["rank"]
        document = documents(rank)
        if document is not None:
            body = _scoped(render_html(document, full_page=False, summary_only=summary_only), rank)
            reported.add(rank)
        else:
            left = entry.get("document_left_out") or {}
            body = _note(f"Rank {rank}'s document is not in this file: "
                         f"{left.get('reason', 'not embedded')} ({left.get('bytes', '?')} bytes).")
        parts.append(f'<div class="tcx-rank-report" id="{_rank_anchor(rank)}">'
                     f"<h2>Rank {_e(rank)}</h2>\n{body}</div>")
    return "\n".join(parts), reported


def render_ranks_html(data: Data, documents: Documents, *, full_page: bool = True,
                      summary_only: bool = False) -> str:
    """The report of a multi-rank document; ``documents(rank)`` gives a rank's document or
    None. ``summary_only`` keeps each rank's report to its overview and graph breaks
    (notebook outputs)."""
    entries = [e for e in data.get("ranks") or [] if isinstance(e, dict)]
    reports, reported = _rank_reports(entries, documents, summary_only)
    fragment = "\n".join([
        '<div class="tcx-report tcx-ranks-report">',
        f"<style>{_CSS}{_RANKS_CSS}</style>",
        f"<h1>torch.compile across {_plural(len(entries), 'rank')}"
        + (f" (world size {_e(data['world_size'])})" if data.get("world_size") else "") + "</h1>",
        _divergence(data, reported),
        _side_by_side(entries),
        _compiles(entries, reported),
        _collectives(entries),
        reports,
        "</div>",
    ])
    return _page(fragment, "tcexplore: ranks") if full_page else fragment
