"""The Overview's "Not compiled" block: each frame Dynamo ran without compiled code, with
torch's reason and what to do (the document's ``not_compiled`` section)."""

from __future__ import annotations

from typing import Any

from .markup import _details, _e, _location, _plural, _table

# Rows shown; the rest are counted.
MAX_ROWS = 20


def not_compiled_html(data: dict[str, Any]) -> str:
    entries = [e for e in data.get("not_compiled") or [] if isinstance(e, dict)]
    if not entries:
        return ""
    rows = [[_location(e), _e(e.get("category")), _e(e.get("reason")), _e(e.get("advice"))]
            for e in entries[:MAX_ROWS]]
    more = len(entries) - MAX_ROWS
    note = f'<p class="tcx-note">… {_e(more)} more frames not shown</p>' if more > 0 else ""
    compiled = bool((data.get("summary") or {}).get("graphs"))
    title = (f"Not compiled: {_plural(len(entries), 'frame')} ran without compiled code"
             + ("" if compiled else " (nothing was compiled)"))
    return _details(_e(title), _table(["frame", "category", "torch's reason", "what to do"],
                                      rows, "tcx-not-compiled") + note,
                    cls="tcx-not-compiled", open_=not compiled)
