"""Minor page faults: the first touch of freshly mapped memory, counted and timed.

A kernel writing a fresh output (glibc hands large allocations out as new ``mmap`` pages)
takes a page fault per page it first touches; the kernel's time then includes the
kernel's work of zeroing and mapping that page. ``getrusage`` counts the faults of the
whole process (every OpenMP thread); the time one costs is measured here, on this machine:
filling a fresh buffer against filling the same buffer again, over the faults taken.
"""

from __future__ import annotations

import time

try:
    import resource
except ImportError:  # Windows: no getrusage; faults are not counted there
    resource = None  # type: ignore[assignment]

import torch

PROBE_BYTES = 64 * 2**20
REPEATS = 3


def minor_page_faults() -> int:
    """The process's minor page faults so far (0 where getrusage is missing)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt if resource else 0


def seconds_per_fault() -> float | None:
    """Time one minor fault adds to a kernel here: the best of a few fresh fills of
    ``PROBE_BYTES`` less a fill of the touched buffer, over the faults the fresh one took.
    None when no fault was seen (getrusage missing, or memory the allocator kept mapped)."""
    best = None
    for _ in range(REPEATS):
        buffer = torch.empty(PROBE_BYTES // 4)
        faults = minor_page_faults()
        start = time.perf_counter()
        buffer.fill_(1.0)
        fresh = time.perf_counter() - start
        faults = minor_page_faults() - faults
        start = time.perf_counter()
        buffer.fill_(2.0)
        touched = time.perf_counter() - start
        del buffer
        if faults > 0 and fresh > touched:
            per_fault = (fresh - touched) / faults
            best = per_fault if best is None else min(best, per_fault)
    return best
