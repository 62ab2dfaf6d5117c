"""Memory measured (findings/memory.py decides on it, render/memory.py draws it): the peak
of one call, eager against compiled, with its backward when it has one.

CUDA: the caching allocator's own peak (``torch.cuda.max_memory_allocated``), its peak
statistics reset just before the call. CPU: torch's profiler with ``profile_memory=True``,
whose allocation and free events are summed in time order; the peak is the highest running
total, i.e. above what was allocated before the call. After every call the caller's
``restore`` (explore()'s measure/snapshot.py snapshot) puts back what the call reached:
the model, its gradients, optimizer state, the RNG; optimizer state that the step makes on
its first run is kept, as a loop's next step finds it, so both sides measure that step,
each from the state the timing's calls start from.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import torch

from .. import _torch_compat
from .cloned_inputs import clone_tensors
from .native_stderr import quietly_entered

CPU_DEVICE_TYPE = 0  # torch's DeviceType.CPU in the profiler's memory events


def _step(fn: Callable, args: tuple, kwargs: dict[str, Any], backward: bool) -> Callable[[], None]:
    """One call on fresh copies of the inputs, then, where ``backward`` (the call does not
    back-propagate itself), backward of its output if it needs grad."""

    def run() -> None:
        out = fn(*clone_tensors(args), **clone_tensors(kwargs))
        if backward and isinstance(out, torch.Tensor) and out.requires_grad:
            out.backward(torch.ones_like(out))

    return run


def _cuda_peak(run: Callable[[], None]) -> dict[str, int]:
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    run()
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated()
    return {"peak_bytes": peak, "before_bytes": before, "above_before_bytes": peak - before}


def _cpu_peak(run: Callable[[], None]) -> dict[str, int]:
    # Its start and stop lines (Kineto's, on fd 2) are kept out of the user's output.
    with quietly_entered(
        torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU], profile_memory=True
        )
    ) as prof:
        run()
    peak = _running_peak(prof)
    return {"peak_bytes": peak, "before_bytes": None, "above_before_bytes": peak}


def _running_peak(prof: Any) -> int:
    """The highest total of CPU allocations minus frees, in time order, in a profile."""
    running = peak = 0
    for _, nbytes, device in sorted(_torch_compat.profiler_memory_events(prof)):
        if device == CPU_DEVICE_TYPE:
            running += nbytes
            peak = max(peak, running)
    return peak


BACKWARD = (
    "backward included (the call's own, where it back-propagates; else its output's, where "
    "that needs grad)"
)
HOW = {
    "cuda": "torch.cuda.max_memory_allocated() around one call (peak statistics reset just "
    f"before it) from the state the call starts from, {BACKWARD}; peak_bytes counts what "
    "was allocated before the call too",
    "cpu": "torch.profiler (profile_memory=True): allocations minus frees in time order during "
    f"one call from the state the call starts from, {BACKWARD}; the peak is above what "
    "was allocated before the call",
}


RUN_HOW = {
    "cuda": "torch.cuda.max_memory_allocated() around the whole run (peak statistics reset "
    "just before it); peak_bytes counts what was allocated before the run too",
    "cpu": "torch.profiler (profile_memory=True): allocations minus frees in time order during "
    "the whole run; the peak is above what was allocated before the run",
}


def measure_peaks(
    fn: Callable,
    compiled_fn: Callable,
    args: tuple,
    kwargs: dict[str, Any],
    cuda: bool,
    restore: Callable[[], None],
    backward: bool = True,
) -> dict[str, Any]:
    """``memory.peak_bytes``: eager and compiled, one call each after a warm-up call (which
    compiles the backward), each from the state ``restore()`` puts back (the start state,
    as timing's calls start), and put back after. ``backward``: the call does not
    back-propagate itself, so its output's backward is part of it (a step that calls
    ``loss.backward()`` and returns the loss has done its backward)."""
    peak = _cuda_peak if cuda else _cpu_peak
    result: dict[str, Any] = {
        "device": "cuda" if cuda else "cpu",
        "how": HOW["cuda" if cuda else "cpu"],
    }
    for side, call in (("eager", fn), ("compiled", compiled_fn)):
        run = _step(call, args, kwargs, backward)
        try:
            restore()
            run()
            restore()
            result[side] = peak(run)
        finally:
            restore()
    eager, compiled = (
        result["eager"]["above_before_bytes"],
        result["compiled"]["above_before_bytes"],
    )
    result["difference_bytes"] = compiled - eager
    result["ratio"] = compiled / eager if eager else None
    return result


def cudagraph_pools() -> list[dict[str, Any]]:
    """Memory the caching allocator holds in private pools (CUDA graphs' pools: what
    reduce-overhead keeps between replays), from its public snapshot's segments."""
    pools: dict[tuple[int, int], dict[str, Any]] = {}
    for segment in torch.cuda.memory_snapshot():
        pool = tuple(segment.get("segment_pool_id") or (0, 0))
        if pool == (0, 0):
            continue  # the default pool: ordinary allocations
        entry = pools.setdefault(
            pool, {"pool": list(pool), "segments": 0, "reserved_bytes": 0, "allocated_bytes": 0}
        )
        entry["segments"] += 1
        entry["reserved_bytes"] += segment["total_size"]
        entry["allocated_bytes"] += segment["allocated_size"]
    return sorted(pools.values(), key=lambda p: -p["reserved_bytes"])


def measure_memory(
    fn: Callable,
    compiled_fn: Callable,
    args: tuple,
    kwargs: dict[str, Any],
    cuda: bool,
    restore: Callable[[], None],
    backward: bool = True,
) -> dict[str, Any]:
    """The document's ``memory`` section: peaks, and on CUDA the private pools after them."""
    peaks = measure_peaks(fn, compiled_fn, args, kwargs, cuda, restore, backward)
    pools = cudagraph_pools() if cuda else None
    if pools and peaks["compiled"]["peak_bytes"]:
        for pool in pools:
            pool["share_of_compiled_peak"] = (
                pool["reserved_bytes"] / peaks["compiled"]["peak_bytes"]
            )
    return {"peak_bytes": peaks, "cudagraph_pools": pools, "error": None}


@contextlib.contextmanager
def run_peak() -> Iterator[dict[str, Any]]:
    """``tcexplore run --memory``: the whole script's peak, as it ran (compiled as written;
    a script has no eager twin). Yields the section, filled on exit."""
    cuda = torch.cuda.is_available()
    section: dict[str, Any] = {"peak_bytes": None, "cudagraph_pools": None, "error": None}
    measured: dict[str, Any] = {}
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: measured.update(peak()))
        if cuda:
            peak = _cuda_peak_of_block(stack)
        else:
            peak = _cpu_peak_of_block(stack)
        yield section
    how = RUN_HOW["cuda" if cuda else "cpu"]
    section["peak_bytes"] = {
        "device": "cuda" if cuda else "cpu",
        "how": how,
        "eager": None,
        "compiled": measured,
    }
    section["cudagraph_pools"] = cudagraph_pools() if cuda else None


def _cuda_peak_of_block(stack: contextlib.ExitStack) -> Callable[[], dict[str, int]]:
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()

    def read() -> dict[str, int]:
        peak = torch.cuda.max_memory_allocated()
        return {"peak_bytes": peak, "before_bytes": before, "above_before_bytes": peak - before}

    return read


def _cpu_peak_of_block(stack: contextlib.ExitStack) -> Callable[[], dict[str, int]]:
    prof = stack.enter_context(
        quietly_entered(
            torch.profiler.profile(
                activities=[torch.profiler.ProfilerActivity.CPU], profile_memory=True
            )
        )
    )

    def read() -> dict[str, int]:
        peak = _running_peak(prof)
        return {"peak_bytes": peak, "before_bytes": None, "above_before_bytes": peak}

    return read
