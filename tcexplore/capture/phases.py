"""Compile-time phase tree from ``chromium_event`` begin/end pairs (``ph`` B/E)."""

from __future__ import annotations

from typing import Any

_ENVELOPE_ARGS = {"compile_id", "fn_name", "frame_key", "co_name", "co_filename", "co_firstlineno"}


def _data(event: dict[str, Any]) -> dict[str, Any]:
    """What torch attached to a phase (e.g. ``autotune_choices_stats``), bar the envelope."""
    args = event.get("args") or {}
    return {k: v for k, v in args.items() if k not in _ENVELOPE_ARGS and v is not None}


def build_phase_tree(
    events: list[tuple[str | None, dict[str, Any]]],
) -> dict[str, list[dict[str, Any]]]:
    """Per compile id (the document's, which the event handler resolved), the nested
    phases with their durations in milliseconds."""
    roots: dict[str, list[dict[str, Any]]] = {}
    stacks: dict[str, list[dict[str, Any]]] = {}
    for cid, event in events:
        if cid is None or event.get("ph") not in ("B", "E"):
            continue
        stack = stacks.setdefault(cid, [])
        if event["ph"] == "B":
            phase = {
                "name": event.get("name"),
                "start_us": event.get("ts"),
                "duration_ms": None,
                "data": _data(event),
                "children": [],
            }
            (stack[-1]["children"] if stack else roots.setdefault(cid, [])).append(phase)
            stack.append(phase)
        else:
            # Pop to the matching begin; an unmatched end (begin before capture) is dropped.
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth]["name"] == event.get("name"):
                    phase = stack[depth]
                    phase["data"].update(_data(event))
                    if phase["start_us"] is not None and event.get("ts") is not None:
                        phase["duration_ms"] = round((event["ts"] - phase["start_us"]) / 1000, 3)
                    del stack[depth:]
                    break
    return roots
