"""Frames torch skipped or ran eagerly (``not_compiled``), and runs where nothing compiled
at all: never reported as "no graph breaks". Where nothing compiled, the first skipped
frame is the one torch.compile was called on; a module's ``.compile()`` compiles torch's
``Module._call_impl``, so the finding names the module whose forward it called."""

from __future__ import annotations

from typing import Any

from .make import finding, location

NOTHING = (
    "Nothing was compiled: torch.compile recorded no graph (the compiled function "
    "never ran, or torch skipped every frame)"
)


NEWS_BESIDE_COMPILES = ("disabled", "stance", "recompile_limit")
CALL_IMPL = ("Module._call_impl", "Module._wrapped_call_impl")


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    skipped = [s for s in data.get("not_compiled") or [] if isinstance(s, dict)]
    graphs = (data.get("summary") or {}).get("graphs")
    if not isinstance(graphs, int):
        graphs = sum(1 for c in data.get("compiles") or [] if c.get("dynamo_graph") is not None)
    if graphs:  # beside compiled code, frames torch skips by rule (its own, ones without
        # tensor work) are not news: only frames the user's settings kept from compiling
        skipped = [s for s in skipped if s.get("category") in NEWS_BESIDE_COMPILES]
    out = []
    compiled = None if graphs or not skipped else _compiled(skipped)
    for group in _by_reason(skipped):
        first, rest = group[0], len(group) - 1
        name = _name(first)
        if compiled is not None and skipped[0] in group:
            first, name = compiled
        loc = location(first)
        more = f" and {rest} more frame{'s' if rest > 1 else ''}" if rest else ""
        out.append(
            finding(
                "nothing_compiled",
                "info" if graphs else "warning",
                ("" if graphs else "Nothing was compiled: ") + f"{name}{more} ran eagerly "
                f"({first.get('category') or 'not compiled'}): "
                f"{first.get('reason') or 'no reason given'}",
                count=len(group),
                locations=[loc] if loc else [],
                advice=first.get("advice"),
                evidence=[link for link in [_source(first)] if link],
            )
        )
    if not graphs and not skipped and not isinstance(data.get("error"), dict):
        out.append(finding("nothing_compiled", "warning", NOTHING, count=0))
    return out


def _name(s: dict[str, Any]) -> str:
    return str(s.get("qualname") or s.get("function") or "?")


def _compiled(skipped: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    """The frame the user compiled and its name: the first skipped frame, or where that is
    torch's ``Module._call_impl`` (a module's ``.compile()``), the module's forward it called."""
    first = skipped[0]
    if _name(first) not in CALL_IMPL:
        return first, _name(first)
    forward = next(
        (s for s in skipped[1:] if s.get("function") == "forward" and _name(s) != "forward"), None
    )
    if forward is None:
        return first, _name(first)
    module = _name(forward).rsplit(".", 1)[0]
    return forward, f"{module} (the module compiled: its forward, called by {_name(first)})"


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
