"""The Overview's findings and the Shapes section, drawn from the document's ``findings``
(decided in tcexplore/findings/, never here)."""

from __future__ import annotations

from typing import Any

from .graph_breaks import site_anchor
from .markup import Data, _c, _compile_anchor, _details, _e, _location, _note, _table
from .memory import MEMORY_ANCHOR
from .profile import PROFILE_ANCHOR
from .tried import fix_block

SHAPES_ANCHOR = "tcx-shapes"
OLD_DOCUMENT = (
    "This document was saved before tcexplore recorded its findings: "
    "tcexplore.load() computes them (save it again to keep them)."
)
CSS = """
.tcx-report .tcx-finding-list { list-style: none; padding-left: 0; }
.tcx-report .tcx-finding { margin: 4px 0; padding: 4px 8px; border-left: 4px solid #d0d7de; }
.tcx-report .tcx-finding-error { border-color: #cf222e; }
.tcx-report .tcx-finding-warning { border-color: #bf8700; }
.tcx-report .tcx-finding-info { border-color: #0969da; }
.tcx-report .tcx-finding-ok { border-color: #1a7f37; }
.tcx-report .tcx-severity { font-size: 11px; text-transform: uppercase; color: #57606a;
  margin-right: 6px; }
.tcx-report .tcx-finding-title { font-weight: 600; }
.tcx-report .tcx-finding ul { margin: 2px 0; }
"""
_TAB_ANCHORS = {
    "timing": "tcx-measurements",
    "accuracy": "tcx-measurements",
    "profile": PROFILE_ANCHOR,
    "run": "tcx-steps",
    "source": "tcx-source",
    "shapes": SHAPES_ANCHOR,
    "cudagraphs": "tcx-compiles",
    "overview": "tcx-overview",
    "memory": MEMORY_ANCHOR,
}


def link_href(link: Data) -> str | None:
    """The report's anchor for a stored link (a finding's evidence, a source mark): a
    break site, a compile, else the section of its tab."""
    if isinstance(link.get("site"), int):
        return site_anchor(link["site"])
    if link.get("compile") is not None:
        return _compile_anchor(link["compile"])
    return _TAB_ANCHORS.get(str(link.get("tab")))


def _evidence(links: list[Any]) -> str:
    parts = []
    for link in links:
        if not isinstance(link, dict):
            continue
        href = link_href(link)
        text = _e(link.get("label") or link.get("tab"))
        parts.append(f'<a href="#{_e(href)}">{text}</a>' if href else text)
    return f'<div class="tcx-muted">See: {", ".join(parts)}</div>' if parts else ""


def _finding(f: Data, drawn: set[str]) -> str:
    severity = str(f.get("severity"))
    body = [
        (
            f'<span class="tcx-severity">{_e(severity)}</span>'
            f'<span class="tcx-finding-title">{_e(f.get("title"))}</span>'
        )
    ]
    places = [_location(loc) for loc in f.get("locations") or []][:10]
    if places and f.get("kind") != "dynamic_shape":
        body.append(f"<div>At {'; '.join(places)}</div>")
    if f.get("details"):
        body.append("<ul>" + "".join(f"<li>{_e(d)}</li>" for d in f["details"][:20]) + "</ul>")
    if f.get("advice"):
        body.append(f"<div><strong>What to do:</strong> {_e(f['advice'])}</div>")
    body.append(fix_block(f, drawn))
    body.append(_evidence(f.get("evidence") or []))
    return (
        f'<li class="tcx-finding tcx-finding-{_e(severity)}" data-kind="{_e(f.get("kind"))}">'
        + "".join(body)
        + "</li>"
    )


def findings_list(data: Data) -> str:
    found = data.get("findings")
    if not isinstance(found, list):
        return _note(OLD_DOCUMENT)
    drawn: set[str] = set()  # tries drawn in full: a later finding holding one, its sentence
    return (
        '<ul class="tcx-finding-list">'
        + "".join(_finding(f, drawn) for f in found if isinstance(f, dict))
        + "</ul>"
    )


def shape_rows(data: Data) -> list[Data]:
    return [
        f["shape"]
        for f in data.get("findings") or []
        if isinstance(f, dict)
        and f.get("kind") == "dynamic_shape"
        and isinstance(f.get("shape"), dict)
    ]


def _guard_kind(guard: Data) -> str:
    if guard.get("kind") == "specialized":
        return " (specializes it)"
    if guard.get("kind") == "runtime_assert":
        check = guard.get("check")
        return (
            f" (runtime assert: {_e(check.get('output'))} wrapper line {_e(check.get('line'))})"
            if isinstance(check, dict)
            else " (runtime assert)"
        )
    return ""


def shapes_section(data: Data) -> str:
    """Each dynamic size in user terms: its symbol and range, the change that made it
    dynamic (an unbacked one: the line that made it), and the lines that guard or specialize
    it with torch's expression (an unbacked one's runtime asserts with the wrapper's line)."""
    shapes = shape_rows(data)
    if not shapes:
        return ""
    rows = []
    for s in shapes:
        changed = s.get("changed") or {}
        made = s.get("made_at")
        when = (
            f"changed from {_e(changed.get('from'))} to {_e(changed.get('to'))}"
            if changed
            else f"unbacked, made by {_location(made)}: {_c(made.get('code'))}"
            if isinstance(made, dict)
            else "unbacked"
            if s.get("unbacked")
            else "dynamic from the first compile"
        )
        guards = (
            "<br>".join(
                f"{_location(g)}: {_c(g.get('expr'))}" + _guard_kind(g)
                for g in s.get("guards") or []
            )
            or '<span class="tcx-muted">none</span>'
        )
        rows.append(
            [
                _c(s.get("name")),
                _c(s.get("symbol")),
                _e(s.get("range")),
                when,
                f'<a href="#{_e(_compile_anchor(s.get("compile")))}">{_e(s.get("compile"))}</a>',
                guards,
            ]
        )
    return _details(
        "Shapes",
        _table(
            ["size", "symbol", "range", "why dynamic", "compile", "lines that guard it"],
            rows,
            "tcx-shapes-table",
        ),
        cls="tcx-section tcx-shapes",
        id_=SHAPES_ANCHOR,
    )
