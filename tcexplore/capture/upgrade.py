"""A document saved before capture stored some text parsed: that text parsed now, by the
same parsers, so that every reader (views, the diff) finds the parsed form and none parses
it again. Run on every document read from outside (``tcexplore.load``, ``Document(data)``).

- a cache event's key ``components`` (torch's "[hash] name: value" lines) -> ``key_components``
- a graph break's ``reason`` -> its ``message``, ``generic`` line and ``details``
"""

from __future__ import annotations

from typing import Any

from .parsers.cache_info import key_components
from .parsers.graph_breaks import split_reason


def parse_older(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with the parsed forms it lacks, in place; returns ``data``."""
    for record in data.get("compiles") or []:
        for entry in record.get("cache") or [] if isinstance(record, dict) else []:
            if isinstance(entry, dict) and isinstance(entry.get("components"), list):
                entry["key_components"], unread = key_components(entry.pop("components"))
                if unread:
                    entry["key_components_unread"] = unread
    for brk in data.get("graph_breaks") or []:
        if isinstance(brk, dict) and "message" not in brk:
            brk.update(split_reason(brk.get("reason")))
    return data
