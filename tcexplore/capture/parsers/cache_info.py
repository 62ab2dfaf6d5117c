"""What torch's cache hit/miss/bypass events say beyond the outcome: the key's components
(one "[hash] name: value" line each; what a diff of two runs names when a key changed)
and the time a hit saved."""

from __future__ import annotations

from typing import Any

MAX_COMPONENTS = 2000  # torch 2.13's FX graph key has ~640 (most: inductor_config[...])
MAX_COMPONENT_CHARS = 200  # the [hash] still tells a longer value's change


def cache_details(info: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    components = info.get("components")
    if isinstance(components, list):
        out["components"] = [str(line)[:MAX_COMPONENT_CHARS]
                             for line in components[:MAX_COMPONENTS]]
        if len(components) > MAX_COMPONENTS:
            out["components_truncated"] = len(components)
    saved = info.get("time_saved_ns")
    if isinstance(saved, (int, float)):
        out["time_saved_ms"] = round(saved / 1e6, 3)
    return out
