"""Cache entries tcexplore's own compiles wrote in this process, so that a later hit on one
is not taken for the user's warm start.

explore() and a ``%%tcompile`` cell compile the user's code afresh each time (a backend
equal only to itself, a new function per cell run), where the program alone would have
reused what it had compiled. Their compiles write FX-graph and AOTAutograd entries in the
user's cache directory, as torch.compile does, and a second exploration of the same code
then hits them: a hit that only tcexplore caused. Each such capture remembers, as it
closes, the keys it missed (torch writes the entry on a miss) with the cache directory
they went to; a hit of a later capture on one of those is marked ``earlier_exploration``
in its cache entry. A hit on an entry the program's own compiles wrote (a warm start,
a second run) is the user's.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from .handlers.payloads import json_or_none

# torch's cache events (artifact names) whose key a capture notes
CACHE_EVENTS = (
    "fx_graph_cache_hit",
    "fx_graph_cache_miss",
    "aotautograd_cache_hit",
    "aotautograd_cache_miss",
)

_lock = threading.Lock()
_written: dict[tuple[str | None, str], int] = {}  # (directory, key) -> the capture's serial
_serials = iter(range(1, 1 << 62))


def next_serial() -> int:
    with _lock:
        return next(_serials)


def cache_event(metadata: dict[str, Any]) -> str | None:
    """The cache event a record is (``fx_graph_cache_miss``, ...), else None."""
    artifact = metadata.get("artifact")
    name = artifact.get("name") if isinstance(artifact, dict) else None
    return name if name in CACHE_EVENTS else None


def directory() -> str | None:
    """Inductor's cache directory now (torch sets the variable as it first uses it)."""
    return os.environ.get("TORCHINDUCTOR_CACHE_DIR")


def _key(payload: str | None) -> str | None:
    info = json_or_none(payload)
    key = info.get("key") if isinstance(info, dict) else None
    return key if isinstance(key, str) else None


def remember(serial: int, heard: list[tuple[str, str | None, str | None]]) -> None:
    """The misses an explored capture heard (event, directory, payload): their entries
    were written by tcexplore's own compile."""
    with _lock:
        for event, where, payload in heard:
            key = _key(payload) if event.endswith("_miss") else None
            if key is not None:
                _written.setdefault((where, key), serial)


def mark(serial: int, heard: list[tuple[str, str | None, str | None]]) -> set[str]:
    """The keys of this capture's hits on entries another, explored capture wrote."""
    marked = set()
    with _lock:
        for event, where, payload in heard:
            key = _key(payload) if event.endswith("_hit") else None
            if key is not None and _written.get((where, key), serial) != serial:
                marked.add(key)
    return marked
