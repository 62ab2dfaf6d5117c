"""A compile's restarted attempts (capture/attempts.py): each attempt's Dynamo graph, with
the reason Dynamo restarted after it, above the last attempt's graph."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .markup import Data, _details, _e


def _reason_line(reason: str) -> str:
    """torch names a restart without a message by its exception's class: ``<class 'a.b.C'>`` -> C."""
    line = reason.strip().splitlines()[0] if reason.strip() else ""
    match = re.fullmatch(r"<class '(?:[\w.]*\.)?(\w+)'>", line)
    return match[1] if match else line


def restarted_attempts(compile_: Data, draw_graph: Callable[[Any], str]) -> str:
    blocks = []
    for attempt in compile_.get("restarted_attempts") or []:
        if not isinstance(attempt, dict):
            continue
        reason = _reason_line(str(attempt.get("reason") or ""))
        why = (
            f"restarted: {reason}"
            if reason
            else "restarted (torch gives this compile's reasons as a set: see Restart reasons)"
        )
        blocks.append(
            _details(
                f"Attempt {_e(attempt.get('attempt'))}, discarded: {_e(why)}",
                draw_graph(attempt.get("graph")),
                cls="tcx-sub tcx-restarted-attempt",
            )
        )
    return "\n".join(blocks)
