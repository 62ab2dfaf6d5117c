"""Frames torch skipped or ran eagerly (``not_compiled``), and runs where nothing compiled
at all: never reported as "no graph breaks"."""

from __future__ import annotations

from typing import Any

from .make import finding, location

NOTHING = ("Nothing was compiled: torch.compile recorded no graph (the compiled function "
           "never ran, or torch skipped every frame)")


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    skipped = [s for s in data.get("not_compiled") or [] if isinstance(s, dict)]
    graphs = (data.get("summary") or {}).get("graphs")
    if not isinstance(graphs, int):
        graphs = sum(1 for c in data.get("compiles") or [] if c.get("dynamo_graph") is not None)
    out = []
    for s in skipped:
        loc = location(s)
        out.append(finding(
            "nothing_compiled", "warning",
            f"{s.get('function') or '?'} ran eagerly ({s.get('category') or 'not compiled'}): "
            f"{s.get('reason') or 'no reason given'}",
            locations=[loc] if loc else [], advice=s.get("advice"),
            evidence=[link for link in [_source(s)] if link]))
    if not graphs and not skipped and not isinstance(data.get("error"), dict):
        out.append(finding("nothing_compiled", "warning", NOTHING, count=0))
    return out


def _source(s: dict[str, Any]) -> dict[str, Any] | None:
    if s.get("file") and isinstance(s.get("line"), int):
        return {"tab": "source", "file": s["file"], "line": s["line"], "label": f"line {s['line']}"}
    return None
