"""A document saved before capture stored some text parsed: that text parsed now, by the
same parsers, so that every reader (views, the diff) finds the parsed form and none parses
it again. Run on every document read from outside (``tcexplore.load``, ``Document(data)``).

- a cache event's key ``components`` (torch's "[hash] name: value" lines) -> ``key_components``
- a graph break's ``reason`` -> its ``message``, ``generic`` line and ``details``
- a graph input's name (Dynamo's ``l_self_modules_..._parameters_weight_``) -> its ``module``
- a restarted attempt's ``reason`` -> its ``reason_line``
- guards, placeholders, kernels and resume functions' names -> the masked forms diffs
  compare (parsers/identity.py)
"""

from __future__ import annotations

from typing import Any

from .attempts import reason_line
from .parsers.cache_info import key_components
from .parsers.fx_text import add_module
from .parsers.graph_breaks import split_reason
from .parsers.identity import add_identity


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
    for record in data.get("compiles") or []:
        for attempt in (record.get("restarted_attempts") or []) if isinstance(record, dict) else []:
            if isinstance(attempt, dict) and "reason_line" not in attempt:
                reason = attempt.get("reason")
                attempt["reason_line"] = reason_line(reason) if isinstance(reason, str) else None
        for graph in _graphs(record) if isinstance(record, dict) else []:
            for node in graph.get("nodes") or []:
                if isinstance(node, dict) and "module" not in node:
                    add_module(node)
    add_identity([r for r in data.get("compiles") or [] if isinstance(r, dict)])
    return data


def _graphs(record: dict[str, Any]) -> list[dict[str, Any]]:
    graphs = [
        record.get("dynamo_graph"),
        *(record.get("aot_graphs") or {}).values(),
        *(record.get("post_grad_graphs") or []),
        *((a or {}).get("graph") for a in record.get("restarted_attempts") or []),
    ]
    return [g for g in graphs if isinstance(g, dict)]
