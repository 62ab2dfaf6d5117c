"""What the run view's rows hold beyond their time, from torch's own profiler ranges: what
ran in each eager gap, and where a compiled frame's time outside its kernels goes.

- An eager gap's stretches are covered by the outermost ranges that hold no compiled code
  (``Optimizer.step#AdamW.step``, ``Optimizer.zero_grad#...``, ``enumerate(DataLoader)#...``,
  the autograd engine's ``evaluate_function``, Dynamo's ``TorchDynamo Cache Lookup``, ATen
  ops, a user's ``record_function``); time no range covers is Python with no range. Ranges
  of other threads (the autograd engine's device threads) count where the gap's thread
  has none.
- A frame's entry: Dynamo's cache lookup just before its region (the guards of every cache
  entry tried), its ``CompiledFunction`` (AOTAutograd's runtime wrapper, with its prologue),
  the compiled graph's call (``## Call CompiledFxGraph``: Inductor's wrapper code, a CUDA
  graph's replay bookkeeping) and the kernel launches in it; the rest of its own time is
  Dynamo's bytecode around the graph.
"""

from __future__ import annotations

import bisect
import statistics
from collections import defaultdict
from typing import Any

from .. import _torch_compat
from .instrument import RANGE_PREFIX
from .run_pieces import BACKWARD, GRAPH_CALLS, PROFILER_STEP, REGION, Key, Piece, compile_id

PROLOGUE = "AOTDispatcher Runtime Wrapper Prologue"
# ranges that are compiled code or tcexplore's own, never an eager gap's name
_COMPILED = (REGION, BACKWARD, GRAPH_CALLS[0], GRAPH_CALLS[1], RANGE_PREFIX)
_KINDS = (
    ("Optimizer.step#", "optimizer_step"),
    ("Optimizer.zero_grad#", "zero_grad"),
    ("enumerate(DataLoader)#", "data"),
    ("autograd::engine::evaluate_function", "backward"),
    (_torch_compat.CACHE_LOOKUP_RANGE, "guards"),
    ("aten::", "ops"),
)
PYTHON = "Python (no profiler range)"
ENGINE = "autograd engine (eager backward)"
OPS = "eager ATen ops"


def _kind(name: str) -> tuple[str, str]:
    """(name as shown, kind) of an outermost eager range."""
    for prefix, kind in _KINDS:
        if name.startswith(prefix):
            return {"backward": ENGINE, "ops": OPS}.get(kind, name), kind
    return name, "range"


def _containers(cpu: list[Any]) -> set[int]:
    """Ranges that hold compiled code (or a profiler step): eager names lie below them."""
    held: set[int] = set()
    for event in cpu:
        if event.name.startswith((REGION, PROFILER_STEP)) or event.name == BACKWARD:
            parent = event if event.name.startswith(PROFILER_STEP) else event.cpu_parent
            while parent is not None and id(parent) not in held:
                held.add(id(parent))
                parent = parent.cpu_parent
    return held


def _eager_ranges(cpu: list[Any]) -> list[tuple[float, float, str, str]]:
    held = _containers(cpu)
    out = []
    for e in cpu:
        if id(e) in held or e.name.startswith(_COMPILED):
            continue
        if e.cpu_parent is None or id(e.cpu_parent) in held:
            out.append((e.time_range.start, e.time_range.end, *_kind(e.name)))
    return sorted(out)


def gap_names(cpu: list[Any], steps: dict[int, list[Piece]]) -> dict[tuple, list[dict]]:
    """Per gap (its key), what covered its stretches over the steady steps: name, kind and
    total µs, heaviest first; the rest of the gap is Python with no range."""
    ranges = _eager_ranges(cpu)
    starts = [r[0] for r in ranges]
    longest = max((r[1] - r[0] for r in ranges), default=0.0)
    total: dict[tuple, dict[tuple[str, str], float]] = defaultdict(lambda: defaultdict(float))
    for pieces in steps.values():
        for p in pieces:
            if p.gap is None:
                continue
            lo = bisect.bisect_left(starts, p.start - longest)
            hi = bisect.bisect_left(starts, p.end)
            at, covered = p.start, 0.0
            for start, end, name, kind in ranges[lo:hi]:
                start, end = max(start, at), min(end, p.end)
                if end > start:
                    total[p.gap][(name, kind)] += end - start
                    covered += end - start
                    at = end
            if p.end - p.start > covered:
                total[p.gap][(PYTHON, "python")] += p.end - p.start - covered
    return {
        gap: [
            {"name": name, "kind": kind, "total_us": us}
            for (name, kind), us in sorted(by_name.items(), key=lambda kv: -kv[1])
        ]
        for gap, by_name in total.items()
    }


def _within(event: Any, found: dict[str, float]) -> None:
    """Time of the graph function, the graph call and the launches under ``event``, not
    crossing into a nested region or compiled backward."""
    for child in event.cpu_children:
        name = child.name
        if name.startswith(REGION) or name == BACKWARD:
            continue
        if name.startswith(RANGE_PREFIX):
            found["launch_us"] += child.time_range.end - child.time_range.start
            continue
        span = child.time_range.end - child.time_range.start
        if name == GRAPH_CALLS[0] or name == PROLOGUE:
            found["aot_us"] += span
        elif name.startswith(GRAPH_CALLS[1]):
            found["graph_call_us"] += span
        _within(child, found)


def entry_split(entries: list[tuple[Any, Key]], counted: set[int]) -> dict[Key, dict[str, float]]:
    """Per compile (and backward): µs per entry, over the entries in ``counted`` (ids), of
    AOTAutograd's wrapper (``aot_us``: CompiledFunction and its prologue, less the graph's
    call), the compiled graph's call less its launches (``wrapper_us``) and the launches'
    host time (``launch_us``)."""
    sums: dict[Key, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    count: dict[Key, int] = defaultdict(int)
    for event, key in entries:
        if id(event) not in counted:
            continue
        found: dict[str, float] = defaultdict(float)
        if key[1]:  # a compiled backward: the node itself is AOTAutograd's wrapper
            found["aot_us"] += event.time_range.end - event.time_range.start
        _within(event, found)
        graph = found["graph_call_us"]
        sums[key]["aot_us"] += max(0.0, found["aot_us"] - graph)
        sums[key]["wrapper_us"] += max(0.0, graph - found["launch_us"])
        sums[key]["launch_us"] += found["launch_us"]
        count[key] += 1
    return {k: {name: v / count[k] for name, v in split.items()} for k, split in sums.items()}


def guard_times(cpu: list[Any], counted: set[int]) -> dict[str, float]:
    """Per compile id: the median, over its entries in ``counted`` (ids of regions), of
    Dynamo's cache lookup that found it (the range that ends where its region opens, in
    the same thread): the guards evaluated at each entry, steady state."""
    lookups = sorted(
        (e.time_range.end, e.time_range.start, e.thread)
        for e in cpu
        if e.name == _torch_compat.CACHE_LOOKUP_RANGE
    )
    ends = [lk[0] for lk in lookups]
    found: dict[str, list[float]] = defaultdict(list)
    for region in cpu:
        if id(region) not in counted or not region.name.startswith(REGION):
            continue
        i = bisect.bisect_right(ends, region.time_range.start) - 1
        while i >= 0 and lookups[i][2] != region.thread:
            i -= 1
        if i >= 0 and region.time_range.start - lookups[i][0] <= max(
            5.0, 0.1 * (lookups[i][0] - lookups[i][1])
        ):
            found[compile_id(region)].append(lookups[i][0] - lookups[i][1])
    return {cid: statistics.median(times) for cid, times in found.items()}
