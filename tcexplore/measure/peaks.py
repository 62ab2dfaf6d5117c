"""What this machine can do at best, measured on it once and cached.

The roofline holds each kernel against two roofs: memory bandwidth, from the best of a
few large tensor copies (``dst.copy_(src)``) and in-place updates (``x.mul_(1.0)``), each
byte counted once read and once written, and
compute, from the best of a few large square matmuls per dtype (2·n³ FLOPs each). Both use
torch's own kernels with the thread count and precision settings in force, so they are
what torch can reach here, not a vendor's data sheet. The in-place update is there because
on most CPUs a copy also reads its destination before writing it (write-allocate), so an
in-place kernel moves its counted bytes up to 1.5x faster than a copy does. The figures are cached per machine,
device, torch version, thread count and setting in ``$TCEXPLORE_CACHE_DIR`` (default
``~/.cache/tcexplore``) so a session pays for them once.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from .caches import cpu_caches, describe, last_level_bytes
from .page_faults import seconds_per_fault

COPY_BYTES = {"cpu": 256 * 2**20, "cuda": 1024 * 2**20}
LLC_MULTIPLE = 8  # the CPU roof's buffer is at least this many times the last-level cache
CACHE_VERSION = 2  # bumped when what a cached figure means changes (2: buffer past the LLC)
MATMUL_N = {"cpu": 1536, "cuda": 8192}
REPEATS = 5


def cache_file() -> Path:
    root = os.environ.get("TCEXPLORE_CACHE_DIR") or Path.home() / ".cache" / "tcexplore"
    return Path(root) / "peaks.json"


def _device_name(device: str) -> str:
    if device == "cuda":
        return torch.cuda.get_device_name()
    return platform.processor() or platform.machine()


def _key(device: str, what: str) -> str:
    settings = f"threads={torch.get_num_threads()}"
    if device == "cuda":
        settings += f" tf32={torch.backends.cuda.matmul.allow_tf32}"
    return (
        f"v{CACHE_VERSION}|{platform.node()}|{device}|{_device_name(device)}|"
        f"torch {torch.__version__}|{settings}|{what}"
    )


def copy_bytes(device: str, caches: list[dict[str, Any]]) -> int:
    """The bandwidth roof's buffer: on CPU at least ``LLC_MULTIPLE`` times the last-level
    cache, so that it measures memory, and at most an eighth of physical memory."""
    if device != "cpu":
        return COPY_BYTES[device]
    wanted = max(COPY_BYTES["cpu"], LLC_MULTIPLE * last_level_bytes(caches))
    try:
        wanted = min(wanted, os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 8)
    except (ValueError, OSError):
        pass
    return max(wanted, 2**20) // 2**20 * 2**20


def _best_seconds(fn: Callable[[], Any], device: str) -> float:
    fn()  # warm up (allocations, library initialisation)
    best = float("inf")
    for _ in range(REPEATS):
        if device == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        fn()
        if device == "cuda":
            torch.cuda.synchronize()
        best = min(best, time.perf_counter() - start)
    return best


def _bandwidth_gbps(device: str, nbytes: int) -> float:
    n = nbytes // 4
    src = torch.ones(n, device=device)
    dst = torch.empty_like(src)
    seconds = min(
        _best_seconds(lambda: dst.copy_(src), device), _best_seconds(lambda: src.mul_(1.0), device)
    )
    return 2 * n * 4 / seconds / 1e9


def _gflops(device: str, dtype: torch.dtype) -> float:
    n = MATMUL_N[device]
    a = torch.randn(n, n, device=device).to(dtype)
    b = torch.randn(n, n, device=device).to(dtype)
    return 2 * n**3 / _best_seconds(lambda: a @ b, device) / 1e9


def _load() -> dict[str, float]:
    try:
        data = json.loads(cache_file().read_text())
    except (OSError, ValueError):
        return {}
    return (
        {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, (int, float))}
        if isinstance(data, dict)
        else {}
    )


def _store(cached: dict[str, float]) -> None:
    path = cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(cached, indent=1, sort_keys=True))
        tmp.replace(path)
    except OSError:
        pass  # a read-only home: measured again next time, nothing lost


def measured_peaks(device: str, dtypes: list[str], refresh: bool = False) -> dict[str, Any]:
    """``{"bandwidth_gbps", "gflops": {dtype: ...}, "how", "device", "cached"}`` for
    ``device`` ("cpu" or "cuda") and each dtype name (``float32``, ``bfloat16`` …).
    ``refresh`` measures again (a kernel beat the cached figure: it was measured while the
    machine was busy)."""
    cached = {} if refresh else _load()
    fresh = False

    def figure(what: str, measure: Callable[[], float]) -> float:
        nonlocal fresh
        key = _key(device, what)
        if key not in cached:
            cached[key] = measure()
            fresh = True
        return cached[key]

    caches = cpu_caches() if device == "cpu" else []
    nbytes = copy_bytes(device, caches)
    bandwidth = figure(f"copy or in-place update {nbytes}", lambda: _bandwidth_gbps(device, nbytes))
    fault_s = (
        figure("minor page fault", lambda: seconds_per_fault() or 0.0) if device == "cpu" else 0.0
    )
    gflops = {}
    for name in sorted(set(dtypes)):
        dtype = getattr(torch, name, None)
        if isinstance(dtype, torch.dtype) and dtype.is_floating_point:
            gflops[name] = figure(f"matmul {name}", lambda d=dtype: _gflops(device, d))
    if fresh:
        _store({**_load(), **cached})
    copy_mib = nbytes // 2**20
    past_llc = (
        (
            f" (at least {LLC_MULTIPLE}x the last-level cache; caches the OS reports: "
            f"{describe(caches)})"
        )
        if device == "cpu"
        else ""
    )
    faults = (
        (
            f"; a minor page fault costs {fault_s * 1e6:.2g} µs here (fresh against touched "
            f"fills of a 64 MiB buffer)"
        )
        if fault_s
        else ""
    )
    n = MATMUL_N[device]
    return {
        "device": _device_name(device),
        "bandwidth_gbps": bandwidth,
        "gflops": gflops,
        "how": (
            f"measured on this machine with torch {torch.__version__}, "
            f"{torch.get_num_threads()} threads: bandwidth is the best of {REPEATS} copies "
            f"and {REPEATS} in-place updates of a {copy_mib} MiB tensor{past_llc} (read + write), "
            f"compute the best of {REPEATS} {n}×{n} matmuls per dtype{faults}; "
            f"cached in {cache_file()}"
        ),
        "cached": not fresh,
        "fault_us": fault_s * 1e6 if fault_s else None,
    }
