"""The graph-break audit in the HTML report: one block per site (the line that broke),
most break events first, with torch's whole reason and the user stacks that reached it.
The sites are the document's ``graph_break_sites`` (findings/graph_break_audit.py decided
them); a document saved before they were stored says so.

The overview lists the sites in a table (what to fix, in order); each row links to the
site's block in the "Graph breaks" section. Library frames of a stack are folded, never
dropped.
"""

from __future__ import annotations

from typing import Any

from ..common.formatting import plural
from .markup import (
    MAX_ROWS,
    Data,
    _c,
    _compile_link,
    _details,
    _e,
    _link,
    _more_rows_note,
    _note,
    _pre,
    _table,
)

OLD_SITES = (
    "This document was saved before tcexplore stored its graph breaks grouped by site: "
    "tcexplore.load() computes them (save it again to keep them)."
)


def stored_sites(data: Data) -> list[Data] | None:
    """The document's ``graph_break_sites``; none for a document without graph breaks;
    None for one saved before they were stored (the views say so)."""
    sites = data.get("graph_break_sites")
    if isinstance(sites, list):
        return sites
    return None if data.get("graph_breaks") else []


def site_anchor(index: int) -> str:
    """Element id of the site ranked ``index`` (0 first)."""
    return f"tcx-graph-break-{index}"


def event_anchors(data: Data) -> dict[int, str]:
    """Each break event (its index in ``graph_breaks``) -> the element id of its site."""
    return {
        event: site_anchor(index)
        for index, site in enumerate(stored_sites(data) or [])
        for event in site["events"]
    }


def _hints(hints: list[Any]) -> str:
    if not hints:
        return ""
    items = "".join(f"<li>{_e(h)}</li>" for h in hints[:MAX_ROWS])
    return f'<ul class="tcx-hints">{items}</ul>'


def _reason(reason: Data, several: bool) -> str:
    head = f"<strong>{_e(reason['message'])}</strong>"
    if several:
        head += f' <span class="tcx-muted">({plural(reason["count"], "break event")})</span>'
    parts = [f"<p>{head}</p>"]
    if reason.get("explanation"):
        parts.append(f"<p>{_e(reason['explanation'])}</p>")
    parts.append(_hints(reason.get("hints") or []))
    if reason.get("link"):
        parts.append(f"<p>More: {_link(reason['link'])}</p>")
    context = [
        text
        for text in (
            reason.get("generic"),
            reason.get("developer_context")
            and f"Developer debug context: {reason['developer_context']}",
            reason.get("details"),
        )
        if text
    ]
    if context:
        parts.append(_details("torch's developer context", _pre("\n".join(context))))
    return "\n".join(p for p in parts if p)


def _frame(frame: Data) -> str:
    text = f"{_e(frame['where'])}"
    if frame.get("function"):
        text += f" in {_c(frame['function'])}"
    if frame.get("code"):
        text += f"<br><code>{_e(frame['code'])}</code>"
    return f"<li>{text}</li>"


def stack_html(stack: list[Data]) -> str:
    """A stack, outermost first: the user's frames shown, each run of library frames folded."""
    items: list[str] = []
    run: list[Data] = []

    def fold() -> None:
        if run:
            inner = "".join(_frame(f) for f in run)
            items.append(
                "<li>"
                + _details(
                    plural(len(run), "library frame"),
                    f'<ul class="tcx-stack">{inner}</ul>',
                    cls="tcx-library-frames",
                )
                + "</li>"
            )
            run.clear()

    for frame in stack:
        if frame["library"]:
            run.append(frame)
        else:
            fold()
            items.append(_frame(frame))
    fold()
    return f'<ul class="tcx-stack">{"".join(items)}</ul>'


def _paths(paths: list[Data]) -> str:
    blocks = []
    for path in paths[:MAX_ROWS]:
        users = [f for f in path["stack"] if not f["library"]]
        route = " → ".join(f.get("function") or "?" for f in users) or "library code only"
        blocks.append(
            _details(
                f'{_e(route)} <span class="tcx-muted">'
                f"({plural(path['count'], 'break event')})</span>",
                stack_html(path["stack"]),
                cls="tcx-sub tcx-call-path",
                open_=len(paths) == 1,
            )
        )
    if len(paths) > MAX_ROWS:
        blocks.append(_more_rows_note(len(paths) - MAX_ROWS))
    return (
        f"<p>Reached from {plural(len(paths), 'call path')} (outermost frame first; "
        "library frames folded):</p>" + "\n".join(blocks)
    )


def _resumes(resumes: list[Data]) -> str:
    if not resumes:
        return ""
    items = "".join(
        f"<li>{_c(r['name'])}: " + ", ".join(_compile_link(cid) for cid in r["compiles"]) + "</li>"
        for r in resumes
    )
    return (
        "<p>Dynamo goes on after the break in resume functions, compiled as frames of "
        f'their own:</p><ul class="tcx-resumes">{items}</ul>'
    )


def _site(index: int, site: Data) -> str:
    reasons = site["reasons"]
    head = reasons[0]["message"] if reasons else ""
    summary = (
        f"#{index + 1} · {_e(site['count'])}× · {_e(site['where'])}"
        + (f" in {_c(site['function'])}" if site.get("function") else "")
        + f" — {_e(head)}"
    )
    parts = [f'<p><code class="tcx-line">{_e(site["code"])}</code></p>' if site.get("code") else ""]
    parts += [_reason(r, len(reasons) > 1) for r in reasons]
    compiles = ", ".join(_compile_link(cid) for cid in site["compiles"][:MAX_ROWS])
    parts.append(f'<p class="tcx-muted">{_e(site["count_note"])} Compiles: {compiles}</p>')
    parts.append(_resumes(site["resume_functions"]))
    parts.append(_paths(site["paths"]))
    return _details(
        summary,
        "\n".join(p for p in parts if p),
        cls="tcx-sub tcx-graph-break",
        id_=site_anchor(index),
    )


def graph_breaks(data: Data) -> str:
    """The "Graph breaks" section: every site of the audit, in its order."""
    sites = stored_sites(data)
    if sites is None:
        title = f"Graph breaks ({plural(len(data['graph_breaks']), 'event')})"
        return _details(
            _e(title), _note(OLD_SITES), cls="tcx-section tcx-graph-breaks", id_="tcx-graph-breaks"
        )
    total = sum(site["count"] for site in sites)
    if sites:
        items = [_site(i, s) for i, s in enumerate(sites[:MAX_ROWS])]
        if len(sites) > MAX_ROWS:
            items.append(_more_rows_note(len(sites) - MAX_ROWS))
        body = (
            '<p class="tcx-muted">Grouped by the line that broke, most break events '
            "first. torch reports a break once per compile that reaches it (each frame "
            "Dynamo was tracing, and each recompile), so a site's count is its number of "
            "events; together they make the document's (and tlparse's) graph-break "
            "count.</p>\n" + "\n".join(items)
        )
    else:
        body = (
            "<p>No graph breaks.</p>"
            if (data.get("summary") or {}).get("graphs")
            else "<p>Nothing was compiled, so nothing could break.</p>"
        )
    title = (
        f"Graph breaks ({plural(total, 'event')} at {plural(len(sites), 'site')})"
        if sites
        else "Graph breaks (0)"
    )
    return _details(_e(title), body, cls="tcx-section tcx-graph-breaks", id_="tcx-graph-breaks")


def audit_table(data: Data) -> str:
    """The overview's list of sites: what broke where, torch's first hint, a link to more."""
    sites = stored_sites(data)
    if not sites:
        return ""
    rows = []
    for i, site in enumerate(sites[:MAX_ROWS]):
        reason = site["reasons"][0] if site["reasons"] else {}
        hint = (reason.get("hints") or [""])[0]
        rows.append(
            [
                f'<a href="#{site_anchor(i)}">#{i + 1}</a>',
                _e(site["count"]),
                _e(site["where"]) + (f" in {_c(site['function'])}" if site.get("function") else ""),
                f"<strong>{_e(reason.get('message'))}</strong>"
                + (f"<br>{_e(hint)}" if hint else ""),
                _link(reason.get("link")),
            ]
        )
    return "<p><strong>Graph breaks by site</strong> (fix from the top):</p>" + _table(
        ["site", "breaks", "line", "torch's reason and first hint", "more"], rows, "tcx-break-audit"
    )
