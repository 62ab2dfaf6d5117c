"""A training step's gradients, the state it left and what measuring put back, for the
"Eager vs compiled" section: the gradient rows (one per parameter, labelled as the outputs
are), the state rows (one per parameter, buffer or optimizer state tensor), and the
``isolation`` section (restored, not restorable)."""

from __future__ import annotations

from typing import Any

from .markup import Data, _details, _e, _table


def gradients_table(accuracy: Data, leaf_rows: Any, headers: list[str]) -> str:
    """The gradient rows (``leaf_rows`` renders leaves as the outputs' table does)."""
    rows = accuracy.get("gradients") or []
    if not rows:
        return ""
    return (
        "<p>Gradients after one training step, eager against compiled (each step run "
        "from the same saved state):</p>"
        + _table(["parameter", *headers[1:]], leaf_rows(rows), "tcx-gradients-table")
    )


def state_table(accuracy: Data, leaf_rows: Any, headers: list[str]) -> str:
    """The rows of the state the step left (parameters, buffers, optimizer state)."""
    rows = accuracy.get("state_after_call") or []
    if not rows:
        return ""
    return (
        "<p>State after one training step (parameters, buffers, optimizer state it "
        "changed), eager against compiled:</p>"
        + _table(["state", *headers[1:]], leaf_rows(rows), "tcx-state-table")
    )


def divergence_of(found: Data) -> list[list[str]]:
    """The divergence table's row saying what diverges there, for a gradient divergence."""
    if found.get("of") != "gradients":
        return []
    return [
        ["diverges in", _e(f"the backward: gradient of graph input {found.get('gradient_of')}")]
    ]


def isolation_html(data: Data) -> str:
    isolation = data.get("isolation")
    if not isinstance(isolation, dict):
        return ""
    restored = "".join(f"<li>{_e(line)}</li>" for line in isolation.get("restored") or [])
    missing = "".join(f"<li>{_e(line)}</li>" for line in isolation.get("not_restorable") or [])
    body = (
        f"<p>Put back as they were after measuring:</p><ul>{restored}</ul>"
        f"<p>Not put back:</p><ul>{missing}</ul>"
    )
    return _details("What measuring left untouched", body, cls="tcx-sub tcx-isolation")
