"""The ``compiled_autograd`` section: each pass of compiled autograd (one traced backward),
with the graph it captured, the Dynamo compiles of that graph and the step that ran it.

torch numbers a pass's compiles ``!N/F/C`` (their events carry ``compiled_autograd_id`` N);
the pass itself has no frame. The step is read from where torch says the pass's first
compile began: the innermost frame of that stack which a compile outside compiled autograd
compiled (``step`` at its ``loss.backward()`` line), and that frame's latest compile before.
"""

from __future__ import annotations

from typing import Any


def link_autograd_passes(
    passes: list[dict[str, Any]], compiles: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    ids = sorted(
        {p["id"] for p in passes}
        | {
            c["compiled_autograd_id"]
            for c in compiles
            if isinstance(c["compiled_autograd_id"], int)
        }
    )
    by_id = {p["id"]: p for p in passes}
    linked = []
    for ca in ids:
        entry = by_id.get(ca) or {"id": ca, "graph": None, "symbols": [], "symbolic_guards": []}
        own = [c for c in compiles if c["compiled_autograd_id"] == ca]
        entry["compiles"] = [c["id"] for c in own]
        entry["step"], entry["call"] = _step(own[0] if own else None, compiles)
        linked.append(entry)
    return linked


def _step(
    first: dict[str, Any] | None, compiles: list[dict[str, Any]]
) -> tuple[str | None, dict[str, Any] | None]:
    """The compile id of the step that ran the pass and the line in it that ran the backward."""
    if first is None:
        return None, None
    before = compiles[: compiles.index(first)]
    for frame in reversed(first["stack"]):
        steps = [
            c
            for c in before
            if c["compiled_autograd_id"] is None
            and c["frame"]
            and c["frame"].get("function") == frame.get("function")
            and c["frame"].get("file") == frame.get("file")
        ]
        if steps:
            return steps[-1]["id"], frame
    return None, None
