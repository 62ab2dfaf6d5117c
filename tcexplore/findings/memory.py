"""Where the memory goes: the measured peaks against eager and the activations saved for
backward, with their lines (decided by tcexplore/memory_finding.py, linked here)."""

from __future__ import annotations

from typing import Any

from ..memory_finding import memory_finding
from .make import finding, source_link, tab_link


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    found = memory_finding(data)
    if found is None:
        return []
    lines = [link for link in (source_link(loc) for loc in found["locations"]) if link]
    return [finding("memory", found["severity"], found["title"], count=found["count"],
                    locations=found["locations"], advice=found["advice"],
                    evidence=[tab_link("memory", "Where the memory goes"), *lines],
                    details=[found["evidence"]] if found["evidence"] else [])]
