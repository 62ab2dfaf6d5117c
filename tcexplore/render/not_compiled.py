"""The Overview's "Not compiled" block: each frame Dynamo ran without compiled code, with
torch's reason and what to do (the document's ``not_compiled`` section). Frames with the
same reason share a row, as findings/ grouped them (``not_compiled_groups``): the first is
named in full, the others listed by name."""

from __future__ import annotations

from typing import Any

from ..common.formatting import plural
from .markup import _details, _e, _location, _note, _table

# Reasons shown, and other frames named per reason; the rest are counted.
MAX_ROWS, MAX_NAMES = 20, 8


OLD_GROUPS = (
    "This document was saved before tcexplore stored its frames not compiled by reason: "
    "tcexplore.load() computes them."
)


def _frames(group: list[dict[str, Any]]) -> str:
    names = [str(e.get("function")) for e in group[1 : MAX_NAMES + 1]]
    more = len(group) - 1 - len(names)
    rest = (
        f'<br><span class="tcx-muted">and {_e(plural(len(group) - 1, "more frame"))}: '
        f"{_e(', '.join(names))}{_e(f', … {more} more') if more > 0 else ''}</span>"
        if len(group) > 1
        else ""
    )
    return _location(group[0]) + rest


def not_compiled_html(data: dict[str, Any]) -> str:
    entries = [e for e in data.get("not_compiled") or [] if isinstance(e, dict)]
    if not entries:
        return ""
    stored = data.get("not_compiled_groups")
    if not isinstance(stored, dict):
        return _details("Not compiled", _note(OLD_GROUPS), cls="tcx-not-compiled")
    groups = [[entries[i] for i in group] for group in stored["groups"]]
    rows = [
        [_frames(g), _e(g[0].get("category")), _e(g[0].get("reason")), _e(g[0].get("advice"))]
        for g in groups[:MAX_ROWS]
    ]
    more = len(groups) - MAX_ROWS
    note = f'<p class="tcx-note">… {_e(more)} more reasons not shown</p>' if more > 0 else ""
    return _details(
        _e(stored["title"]),
        _table(["frame", "category", "torch's reason", "what to do"], rows, "tcx-not-compiled")
        + note,
        cls="tcx-not-compiled",
        open_=stored["open"],
    )
