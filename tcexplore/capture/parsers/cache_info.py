"""What torch's cache hit/miss/bypass events say beyond the outcome: the key's components
(torch writes one "[hash] name: value" line each; stored parsed, as ``key_components``, so
that a diff of two runs names the components whose values changed without reading the text
again) and the time a hit saved."""

from __future__ import annotations

import re
from typing import Any

MAX_COMPONENTS = 2000  # torch 2.13's FX graph key has ~640 (most: inductor_config[...])
MAX_VALUE_CHARS = 200  # the hash still tells a longer value's change
_LINE = re.compile(r"^\[(?P<hash>[^\]]*)\] (?P<name>[^:]+): (?P<value>.*)$", re.DOTALL)


def key_components(lines: list[Any]) -> tuple[list[dict[str, str]], int]:
    """torch's component lines -> ({name, hash, value} each, lines not in that form)."""
    parsed, unread = [], 0
    for line in lines[:MAX_COMPONENTS]:
        match = _LINE.match(str(line))
        if match:
            parsed.append(
                {
                    "name": match["name"],
                    "hash": match["hash"],
                    "value": match["value"][:MAX_VALUE_CHARS],
                }
            )
        else:
            unread += 1
    return parsed, unread


def cache_details(info: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    components = info.get("components")
    if isinstance(components, list):
        out["key_components"], unread = key_components(components)
        if unread:
            out["key_components_unread"] = unread
        if len(components) > MAX_COMPONENTS:
            out["components_truncated"] = len(components)
    saved = info.get("time_saved_ns")
    if isinstance(saved, (int, float)):
        out["time_saved_ms"] = round(saved / 1e6, 3)
    return out
