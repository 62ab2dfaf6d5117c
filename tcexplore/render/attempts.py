"""A compile's restarted attempts (capture/attempts.py): each attempt's Dynamo graph, with
the reason Dynamo restarted after it, above the last attempt's graph."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .markup import Data, _details, _e


def restarted_attempts(compile_: Data, draw_graph: Callable[[Any], str]) -> str:
    blocks = []
    for attempt in compile_.get("restarted_attempts") or []:
        if not isinstance(attempt, dict):
            continue
        reason = str(attempt.get("reason") or "").strip().splitlines()
        why = (f"restarted: {reason[0]}" if reason else
               "restarted (torch gives this compile's reasons as a set: see Restart reasons)")
        blocks.append(_details(
            f"Attempt {_e(attempt.get('attempt'))}, discarded: {_e(why)}",
            draw_graph(attempt.get("graph")), cls="tcx-sub tcx-restarted-attempt"))
    return "\n".join(blocks)
