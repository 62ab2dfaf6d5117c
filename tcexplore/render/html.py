"""A self-contained HTML report of one tcexplore document.

``render_html(document)`` returns one string: a full page by default (what
``Document.save("x.html")`` writes), or with ``full_page=False`` just the
``<div class="tcx-report">`` fragment, for a notebook. The report needs no network and
no JavaScript: sections are ``<details>`` elements and the only style is an inline
``<style>`` whose rules are all scoped under ``.tcx-report``. This module is the page: its
style, the sections in order and the bound on the compiles shown in full; each section is
drawn by its own module (``overview.py``, ``compile.py`` and the parts it assembles, ...).

Every string in a document is untrusted (node names, code, file names and reasons come
from user code), so each one goes through the escaping of ``markup.py`` before it reaches
the page. Big things are cut with a visible note (``MAX_ROWS``, ``MAX_TEXT_CHARS``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..common.contained import error_text
from .bytecode import CSS as _BYTECODE_CSS
from .compile import compile_section
from .compile_time import compile_time
from .findings import CSS as _FINDINGS_CSS
from .findings import shapes_section
from .graph_breaks import graph_breaks
from .markup import (
    MAX_CELL_ITEMS,
    MAX_ROWS,
    MAX_TEXT_CHARS,
    SOURCE_LABELS,
    Data,
    _c,
    _details,
    _e,
    _location,
    _note,
    _page,
    _status,
    _table,
)
from .measurements import measurements
from .memory import memory_section
from .overview import overview
from .profile import profile_section
from .source import sources
from .tried import CSS as _TRIED_CSS

__all__ = ["MAX_CELL_ITEMS", "MAX_ROWS", "MAX_TEXT_CHARS", "render_html"]


# The doubled class on table cells outranks JupyterLab's `:not(.jp-RenderedMarkdown)
# .jp-RenderedHTMLCommon td` (right-aligned cells) when the fragment is shown there.
_CSS = """
.tcx-report { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 14px;
  line-height: 1.4; color: #1f2328; background: #fff; max-width: 100%; }
.tcx-report h1 { font-size: 20px; margin: 4px 0 12px; }
.tcx-report details { margin: 6px 0; }
.tcx-report details > summary { cursor: pointer; font-weight: 600; }
.tcx-report .tcx-section { border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 10px; }
.tcx-report .tcx-section > summary { font-size: 16px; }
.tcx-report .tcx-sub { margin-left: 8px; border-left: 3px solid #eaeef2; padding-left: 8px; }
.tcx-report table { border-collapse: collapse; margin: 4px 0; font-size: 13px; }
.tcx-report.tcx-report th, .tcx-report.tcx-report td { border: 1px solid #d0d7de;
  padding: 2px 6px; text-align: left; vertical-align: top; }
.tcx-report th { background: #f6f8fa; }
.tcx-report pre, .tcx-report code { font-family: ui-monospace, "SFMono-Regular", Menlo,
  Consolas, monospace; font-size: 12px; }
.tcx-report pre { background: #f6f8fa; padding: 6px 8px; overflow-x: auto; margin: 4px 0;
  white-space: pre; max-height: 40em; overflow-y: auto; }
.tcx-report .tcx-note { color: #9a6700; font-style: italic; margin: 2px 0; }
.tcx-report .tcx-muted { color: #656d76; }
.tcx-report .tcx-error { border: 2px solid #cf222e; background: #ffebe9; border-radius: 6px;
  padding: 6px 10px; margin: 6px 0; }
.tcx-report .tcx-error pre { background: #fff; }
.tcx-report .tcx-findings { font-weight: 600; }
.tcx-report .tcx-status { padding: 0 6px; border-radius: 10px; font-size: 12px;
  background: #eaeef2; }
.tcx-report .tcx-status-ok { background: #dafbe1; }
.tcx-report .tcx-status-failed { background: #ffebe9; color: #cf222e; }
.tcx-report .tcx-status-cache_hit { background: #ddf4ff; }
.tcx-report .tcx-status-random { background: #fff8c5; }
.tcx-report .tcx-status-incomplete, .tcx-report .tcx-status-no_graph,
.tcx-report .tcx-status-skipped { background: #fff8c5; }
.tcx-report ul.tcx-phases { margin: 2px 0; padding-left: 18px; }
.tcx-report code.tcx-line { white-space: pre; }
.tcx-report .tcx-flag { color: #cf222e; font-weight: 700; }
.tcx-report .tcx-mark { display: inline-block; margin: 1px 2px; padding: 0 6px; border-radius: 10px;
  font-size: 12px; text-decoration: none; color: #1f2328; background: #eaeef2; }
.tcx-report .tcx-mark-break, .tcx-report .tcx-mark-recompile { background: #ffebe9;
  color: #cf222e; }
.tcx-report .tcx-mark-kernel { background: #ddf4ff; }
.tcx-report .tcx-mark-shape { background: #fff8c5; }
.tcx-report .tcx-mark-time { background: #ffebe9; color: #a40e26; }
.tcx-report .tcx-mark-break-path { background: #fff; color: #cf222e; border: 1px solid #ffcecb; }
.tcx-report details.tcx-mark-list { display: inline-block; vertical-align: top; margin: 0; }
.tcx-report details.tcx-mark-list > summary { list-style: none; font-weight: 400; }
.tcx-report details.tcx-mark-list > summary::-webkit-details-marker { display: none; }
.tcx-report details.tcx-mark-list ul { margin: 2px 0; padding-left: 18px; font-size: 12px; }
.tcx-report ul.tcx-stack { list-style: none; padding-left: 8px; }
.tcx-report ul.tcx-stack > li { margin: 2px 0; }
.tcx-report table.tcx-break-audit td:nth-child(4) { max-width: 60em; }
.tcx-report .tcx-graph-svg { overflow: auto; max-height: 60em; }
.tcx-report .tcx-graph-svg svg { max-width: none; height: auto; }
"""


# ---------------------------------------------------------------------------- entry point


def render_html(
    document: Any,
    *,
    full_page: bool = True,
    summary_only: bool = False,
    compiles: list[str] | None = None,
) -> str:
    """The report for ``document`` (a :class:`tcexplore.Document` or its ``.data`` dict).

    ``full_page=True`` gives a complete HTML file starting with ``<!DOCTYPE html>``;
    ``full_page=False`` only the ``<div class="tcx-report">`` fragment. ``summary_only``
    keeps the overview and graph breaks and says where the full report is (for notebook
    outputs of big documents). ``compiles`` (ids) shows only those compiles in full.
    """
    data: Data = getattr(document, "data", document)
    explore = data.get("explore") if isinstance(data.get("explore"), dict) else {}
    token = SOURCE_LABELS.set(explore.get("source_labels") or {})
    try:
        fragment = _report(data, summary_only, compiles)
    finally:
        SOURCE_LABELS.reset(token)
    return _page(fragment, "tcexplore report") if full_page else fragment


def _report(data: Data, summary_only: bool = False, only: list[str] | None = None) -> str:
    compiles = data.get("compiles") or []
    detail = (
        _note(
            "Summary only: this document is big. JupyterLab with tcexplore installed "
            'shows all of it; .save("report.html") writes the full report.'
        )
        if summary_only
        else _compiles(data, compiles, only)
    )
    sections = [
        ("overview", overview, data),
        ("measurements", measurements, data),
        ("profile", profile_section, data),
        ("memory", memory_section, data),
        ("sources", sources, data),
        ("shapes", shapes_section, data),
        ("compile time", compile_time, compiles),
        ("graph breaks", graph_breaks, data),
    ]
    parts = [
        '<div class="tcx-report">',
        f"<style>{_CSS}{_BYTECODE_CSS}{_FINDINGS_CSS}{_TRIED_CSS}</style>",
        "<h1>torch.compile report</h1>",
        *(_drawn(name, draw, arg) for name, draw, arg in sections),
        detail,
        "</div>",
    ]
    return "\n".join(parts)


def _drawn(name: str, draw: Callable[..., str], *args: Any) -> str:
    """One section of the report; one that cannot be drawn says so, and costs only itself."""
    try:
        return draw(*args)
    except Exception as exc:  # noqa: BLE001 - never a traceback of ours instead of a report
        return (
            f'<div class="tcx-error">The {_e(name)} section could not be drawn '
            f"({_e(error_text(exc))}); the rest of the report is kept.</div>"
        )


# The report stays a page a browser opens quickly: compiles are shown in full up to these
# bounds (the first always), the rest listed with their counts.
MAX_FULL_COMPILES = 50
MAX_COMPILES_CHARS = 20_000_000


def _compiles(data: Data, compiles: list[Any], only: list[str] | None = None) -> str:
    """Each compile in full (``only``: just those ids) while the bounds allow; the others in
    a table saying how to see them."""
    compiles = [c for c in compiles if isinstance(c, dict)]
    if not compiles:
        return _details(
            "Compiles (0)",
            "<p>No compiles were recorded.</p>",
            cls="tcx-section tcx-compiles",
            id_="tcx-compiles",
        )
    shown, listed, size = [], [], 0
    for c in compiles:
        wanted = only is None or c.get("id") in only
        if wanted and len(shown) < MAX_FULL_COMPILES and (not shown or size < MAX_COMPILES_CHARS):
            shown.append(_drawn(f"compile {c.get('id')}", compile_section, data, c))
            size += len(shown[-1])
        else:
            listed.append(c)
    body = "\n".join(shown)
    if listed:
        body += "\n" + _compiles_not_shown(listed, only is not None)
    return (
        f'<div class="tcx-compiles" id="tcx-compiles">'
        f"<h2>Compiles ({len(compiles)})</h2>\n{body}\n</div>"
    )


def _compiles_not_shown(compiles: list[Data], chosen: bool) -> str:
    why = (
        "Not chosen for this report"
        if chosen
        else f"This report shows compiles in full up to {MAX_FULL_COMPILES} of them or "
        f"{MAX_COMPILES_CHARS // 1_000_000} MB of page"
    )
    listed = "this one is" if len(compiles) == 1 else f"these {len(compiles)} are"
    how = (
        f"{why}; {listed} listed only. See one in full with "
        "<code>tcexplore import LOG --compile ID --html OUT.html</code>, in Python with "
        '<code>tcexplore.load(DOC).save("OUT.html", compiles=["ID"])</code>, or open '
        "the document in JupyterLab, whose explorer shows every compile."
    )
    rows = [
        [
            _c(c.get("id")),
            _location(c.get("frame")),
            _status(c.get("status")),
            _e(len((c.get("dynamo_graph") or {}).get("nodes") or [])),
            _e(sum(len(o.get("kernels") or []) for o in c.get("output_codes") or [])),
            _e(len(c.get("recompile_reasons") or [])),
        ]
        for c in compiles
    ]
    table = _table(
        ["compile", "frame", "status", "graph nodes", "kernels", "recompile reasons"],
        rows,
        "tcx-compiles-not-shown",
    )
    return _details(
        f"Compiles not shown in full ({len(compiles)})",
        f'<p class="tcx-note">{how}</p>' + table,
        cls="tcx-section",
        open_=True,
        id_="tcx-compiles-not-shown",
    )
