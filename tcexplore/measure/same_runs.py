"""compare() rows that torch runs identically, folded into one row, with torch's reason.

A backend other than Inductor ignores ``mode``, and torch says so when it compiles
("aot_autograd-based backend ignoring extra kwargs {'mode': 'max-autotune'}", logged as a
warning). Such a row ran exactly as the same backend's default-mode row with the same
``dynamic``: where the grid has that row, the row is folded into it (``same_runs`` on the
kept row names it and quotes torch); where it has not, the row stays, with torch's words
in ``ignored_options``. Nothing is folded on a guess: only what torch said it ignored.
"""

from __future__ import annotations

from typing import Any

Row = dict[str, Any]


def _ignored_mode(row: Row) -> str | None:
    """torch's message saying this row's backend ignored its ``mode``, if it said so."""
    mode = row.get("mode")
    if mode in (None, "default"):
        return None
    return next(
        (m for m in row.get("ignored_options") or [] if repr(mode) in m and "'mode'" in m), None
    )


def collapse_same_runs(rows: list[Row], label: Any) -> list[Row]:
    """``rows`` less those torch ran as another row of the grid; each kept row's
    ``same_runs`` lists ``{"label", "reason"}`` of the rows folded into it. ``label``
    names a row ("backend / mode / dynamic=...")."""
    kept: list[Row] = []
    for row in rows:
        row.setdefault("same_runs", [])
        row.setdefault("ignored_options", [])
    for row in rows:
        reason = _ignored_mode(row)
        twin = next(
            (
                r
                for r in rows
                if reason
                and r is not row
                and r.get("mode") in (None, "default")
                and r["backend"] == row["backend"]
                and r["dynamic"] == row["dynamic"]
                and r["status"] != "error"
            ),
            None,
        )
        if twin is None:
            kept.append(row)
        else:
            twin["same_runs"].append({"label": label(row), "reason": reason})
    return kept
