"""A finding's fix as the report draws it: the try's stored sentence and a before → after
table, or the setting that can be tried, or why the advice is not tried (all decided in
tcexplore/findings/, never here)."""

from __future__ import annotations

from typing import Any

from ..common.formatting import NONE, fmt_duration, format_bytes
from .markup import Data, _c, _e, _table

CSS = """
.tcx-report .tcx-tried { margin: 4px 0; padding: 4px 8px; background: #f6f8fa; }
.tcx-report .tcx-tried-helped { border-left: 3px solid #1a7f37; }
.tcx-report .tcx-tried-not { border-left: 3px solid #8c959f; }
.tcx-report .tcx-tried table { margin-top: 4px; font-size: 12px; }
"""
# The rows of the before → after table: (label, field, how a value is written).
ROWS = (
    ("graphs", "graphs", str),
    ("graph breaks", "graph_breaks", str),
    ("recompiles", "recompiles", str),
    ("compile time", "compile_s", lambda s: fmt_duration(s * 1e3)),
    ("time per call", "median_ms", fmt_duration),
    ("peak memory", "peak_bytes", format_bytes),
    ("outputs match eager", "outputs_match", lambda ok: "yes" if ok else "no"),
)
TRY_IT = "explore(..., try_fixes=True) or %%tcompile --try-fixes tries it"


def _value(side: Any, key: str, write: Any) -> str:
    value = side.get(key) if isinstance(side, dict) else None
    return _e(NONE if value is None else write(value))


def tried_table(tried: Data) -> str:
    """Before → after, a row per figure either side has."""
    before, after = tried.get("before"), tried.get("after")
    rows = [
        [_e(label), _value(before, key, write), _value(after, key, write)]
        for label, key, write in ROWS
        if any(isinstance(s, dict) and s.get(key) is not None for s in (before, after))
    ]
    interval = tried.get("interval")
    if isinstance(interval, list) and len(interval) == 2:
        rows.append(
            [
                "speedup, 95% interval",
                "",
                _e(f"{interval[0]:.3g}×–{interval[1]:.3g}× (about 95%)"),
            ]
        )
    return _table(["", "before", "after"], rows) if rows else ""


def fix_block(f: Data, drawn: set[str]) -> str:
    """What the finding's fix came to, or can come to, or why not. ``drawn``: the labels
    whose try a finding above drew in full (a later one shows the sentence only)."""
    fix = f.get("fix")
    tried = f.get("tried")
    if isinstance(tried, dict):
        look = "tcx-tried-helped" if tried.get("helped") else "tcx-tried-not"
        label = str(tried.get("label"))
        table = "" if label in drawn else tried_table(tried)
        drawn.add(label)
        return (
            f'<div class="tcx-tried {look}"><div>{_e(tried.get("sentence"))}</div>'
            + table
            + "</div>"
        )
    if not isinstance(fix, dict):
        return ""
    if fix.get("setting"):
        return f'<div class="tcx-muted">Can be tried: {_c(fix.get("label"))} ({_e(TRY_IT)})</div>'
    if fix.get("not_tried"):
        return f'<div class="tcx-muted">Not tried: {_e(fix["not_tried"])}</div>'
    return ""
