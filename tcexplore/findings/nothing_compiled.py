"""Frames torch skipped or ran eagerly (``not_compiled``), and runs where nothing compiled
at all: never reported as "no graph breaks"."""

from __future__ import annotations

from typing import Any

from .make import finding, location

NOTHING = ("Nothing was compiled: torch.compile recorded no graph (the compiled function "
           "never ran, or torch skipped every frame)")


NEWS_BESIDE_COMPILES = ("disabled", "stance", "recompile_limit")


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    skipped = [s for s in data.get("not_compiled") or [] if isinstance(s, dict)]
    graphs = (data.get("summary") or {}).get("graphs")
    if not isinstance(graphs, int):
        graphs = sum(1 for c in data.get("compiles") or [] if c.get("dynamo_graph") is not None)
    if graphs:  # beside compiled code, frames torch skips by rule (its own, ones without
        # tensor work) are not news: only frames the user's settings kept from compiling
        skipped = [s for s in skipped if s.get("category") in NEWS_BESIDE_COMPILES]
    out = []
    for group in _by_reason(skipped):
        first, rest = group[0], len(group) - 1
        loc = location(first)
        more = f" and {rest} more frame{'s' if rest > 1 else ''}" if rest else ""
        out.append(finding(
            "nothing_compiled", "info" if graphs else "warning",
            ("" if graphs else "Nothing was compiled: ")
            + f"{first.get('function') or '?'}{more} ran eagerly "
            f"({first.get('category') or 'not compiled'}): "
            f"{first.get('reason') or 'no reason given'}",
            count=len(group), locations=[loc] if loc else [], advice=first.get("advice"),
            evidence=[link for link in [_source(first)] if link]))
    if not graphs and not skipped and not isinstance(data.get("error"), dict):
        out.append(finding("nothing_compiled", "warning", NOTHING, count=0))
    return out


def _by_reason(skipped: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """One group per (category, torch's reason), in first-seen order."""
    groups: dict[tuple[Any, Any], list[dict[str, Any]]] = {}
    for s in skipped:
        groups.setdefault((s.get("category"), s.get("reason")), []).append(s)
    return list(groups.values())


def _source(s: dict[str, Any]) -> dict[str, Any] | None:
    if s.get("file") and isinstance(s.get("line"), int):
        return {"tab": "source", "file": s["file"], "line": s["line"], "label": f"line {s['line']}"}
    return None
