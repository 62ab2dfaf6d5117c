"""The CPU's caches as the OS reports them, to size the bandwidth roof's buffer.

A copy or in-place update that partly fits in the last-level cache measures the cache,
not memory (a 256 MiB update on a CPU with a few hundred MiB of L3 came out 2x apart from
run to run). The roof's buffer is therefore several times the whole last-level cache: the
size of one cache instance (cpu0's, from ``/sys/devices/system/cpu/cpu0/cache``, else
``os.sysconf``) times the number of instances (CPUs over the CPUs sharing one).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

SYSFS = Path("/sys/devices/system/cpu/cpu0/cache")
_UNITS = {"K": 2**10, "M": 2**20, "G": 2**30}


def _size(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    unit = _UNITS.get(text[-1].upper())
    try:
        return int(text[:-1]) * unit if unit else int(text)
    except ValueError:
        return None


def _cpus(listing: str) -> int:
    """CPUs in a list like ``0-3,8-11``."""
    count = 0
    for part in listing.strip().split(","):
        if "-" in part:
            low, high = part.split("-")
            count += int(high) - int(low) + 1
        elif part:
            count += 1
    return count


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def cpu_caches() -> list[dict[str, Any]]:
    """``[{level, type, bytes, instances}]`` per cache of cpu0 (data and unified)."""
    caches = []
    cpus = os.cpu_count() or 1
    for index in sorted(SYSFS.glob("index*")):
        kind = _read(index / "type").strip()
        size = _size(_read(index / "size"))
        if kind == "Instruction" or size is None:
            continue
        shared = _cpus(_read(index / "shared_cpu_list")) or 1
        caches.append(
            {
                "level": int(_read(index / "level") or 0),
                "type": kind,
                "bytes": size,
                "instances": max(1, cpus // shared),
            }
        )
    if not caches:
        for level in (3, 2):
            try:
                size = os.sysconf(f"SC_LEVEL{level}_CACHE_SIZE")
            except (ValueError, OSError):
                continue
            if size > 0:
                caches.append({"level": level, "type": "Unified", "bytes": size, "instances": 1})
                break
    return caches


def last_level_bytes(caches: list[dict[str, Any]]) -> int:
    """The whole last-level cache of the machine (0 when the OS reports none)."""
    if not caches:
        return 0
    top = max(caches, key=lambda c: c["level"])
    return top["bytes"] * top["instances"]


def describe(caches: list[dict[str, Any]]) -> str:
    """``L1d 32 KiB, L2 512 KiB, L3 32 MiB x1`` (as the OS reports them)."""

    def size(n: int) -> str:
        return f"{n // 2**20} MiB" if n % 2**20 == 0 else f"{n // 2**10} KiB"

    return (
        ", ".join(
            f"L{c['level']}{'d' if c['type'] == 'Data' else ''} {size(c['bytes'])}"
            + (f" x{c['instances']}" if c["instances"] > 1 else "")
            for c in caches
        )
        or "none reported"
    )
