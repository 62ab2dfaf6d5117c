"""Measured time of every kernel of a compiled run, from ``torch.profiler``.

The run's kernels are named in the timeline by ``instrument`` (a range per launch of each
generated kernel and extern call, qualified by compile and output code). On CPU a kernel's
time is its range's wall time (Inductor's C++ kernels and extern calls run synchronously);
on CUDA it is the device time of the GPU kernels launched inside the range. Kernels a CUDA
graph replays have no launch of their own: the profiler hangs them on the compiled graph's
call range, so they are labelled as replayed (and matched to a generated kernel by name
when exactly one has it); their share of the device time is ``cudagraph_share``. An extern
call's FLOPs are torch's own estimate (``with_flops``) for the ATen ops inside its range.
"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any, Callable

import torch
from torch.profiler import ProfilerActivity, profile, schedule

from . import roofline
from .instrument import RANGE_PREFIX, instrumented
from .lines import roll_up
from .peaks import measured_peaks

CUDA_GRAPH_REPLAY = "CUDA graph replay: "
# The profiler range around a compiled graph's call. A kernel launched straight from it, with
# no kernel range of its own, was replayed by a CUDA graph (when torch recorded any).
COMPILED_GRAPH_CALL = "## Call CompiledFxGraph"
COMPILED_REGION = "Torch-Compiled Region"  # ": <compile id>" follows
PROFILED_CALLS = (3, 50)
WARMUP_CALLS = 2
HOW = {
    "cpu": "torch.profiler over the compiled calls, after the timing samples; each kernel "
           "launch and extern call runs inside a profiler range of its own, and its time is "
           "that range's wall time (CPU kernels run synchronously)",
    "cuda": "torch.profiler (CUPTI) over the compiled calls, after the timing samples; each "
            "GPU kernel's device time goes to the generated kernel or extern call whose "
            "profiler range launched it",
}


def _site_index(name: str) -> int | None:
    if name.startswith(RANGE_PREFIX):
        try:
            return int(name[len(RANGE_PREFIX):])
        except ValueError:
            return None
    return None


def _ancestors(event: Any) -> list[Any]:
    chain = []
    while event is not None:
        chain.append(event)
        event = event.cpu_parent
    return chain


def _flops_inside(event: Any) -> float:
    """torch's FLOP estimate for the ATen ops under ``event`` (outermost ops only)."""
    total = 0.0
    for child in event.cpu_children:
        flops = getattr(child, "flops", 0) or 0
        total += flops if flops else _flops_inside(child)
    return total


def profile_run(thunk: Callable[[], Any], document: dict[str, Any], calls: int,
                cuda: bool) -> dict[str, Any]:
    """Profile ``calls`` calls of ``thunk`` (a compiled function on its inputs) and
    attribute the time to the document's kernels; times are per call of ``thunk``."""
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    graphs_recorded = any(c.get("cudagraphs", {}).get("recordings")
                          for c in document.get("compiles", []))
    started = time.perf_counter()
    with instrumented(document) as sites:
        if cuda:
            torch.cuda.synchronize()
        # The profiler's own first steps are slow: they warm up outside the recorded ones.
        with profile(activities=activities, record_shapes=True, with_flops=True,
                     schedule=schedule(wait=0, warmup=WARMUP_CALLS, active=calls, repeat=1),
                     acc_events=True) as prof:
            for _ in range(WARMUP_CALLS + calls):
                thunk()
                if cuda:
                    torch.cuda.synchronize()
                prof.step()
    cost_s = time.perf_counter() - started
    time_us: dict[int, float] = defaultdict(float)
    flops: dict[int, float] = defaultdict(float)
    launches: dict[int, int] = defaultdict(int)
    replayed: dict[str, float] = defaultdict(float)
    other_device_us = 0.0
    region_us = 0.0
    events = prof.events()
    for event in events:
        if event.name.startswith(COMPILED_REGION) and not any(
                a.name.startswith(COMPILED_REGION) for a in _ancestors(event.cpu_parent)):
            region_us += event.cpu_time_total
        index = _site_index(event.name)
        if index is not None:
            launches[index] += 1
            flops[index] += _flops_inside(event)
            if not cuda:
                time_us[index] += event.cpu_time_total
        if not cuda:
            continue
        for kernel in getattr(event, "kernels", []) or []:
            chain = _ancestors(event)
            owner = next((i for i in (_site_index(a.name) for a in chain) if i is not None), None)
            if owner is not None:
                time_us[owner] += kernel.duration
            elif graphs_recorded and any(a.name.startswith(COMPILED_GRAPH_CALL) for a in chain):
                replayed[kernel.name] += kernel.duration
            else:
                other_device_us += kernel.duration
    rows = [_row(site, time_us[i] / calls, flops[i] / launches[i], launches[i] / calls)
            for i, site in enumerate(sites) if launches[i]]
    rows += _replay_rows(replayed, document, calls)
    device_total = sum(r["time_us"] for r in rows) + other_device_us / calls
    return {
        "device": "cuda" if cuda else "cpu",
        "profiled_calls": calls,
        "cost_s": cost_s,
        "region_us": region_us / calls if region_us else None,
        "kernels": sorted(rows, key=lambda r: -r["time_us"]),
        "other_us": other_device_us / calls,
        "cudagraph_share": (sum(r["time_us"] for r in rows if r["kind"] == "cudagraph")
                            / device_total) if cuda and device_total else None,
    }


def _row(site: Any, time_us: float, flops: float, calls: float) -> dict[str, Any]:
    """One kernel: time and launches per call of the step; bytes and FLOPs per launch
    (an extern's FLOPs are torch's estimate; a generated kernel's are counted from its
    nodes by roofline.kernel_flops)."""
    return {
        "name": site.name,
        "compile": site.compile_index,
        "output": site.output_index,
        "kind": site.kind,
        "time_us": time_us,
        "calls": calls,
        "bytes": site.bytes,
        "flops": flops if site.kind == "extern" and flops else None,
    }


def _replay_rows(replayed: dict[str, float], document: dict[str, Any],
                 calls: int) -> list[dict[str, Any]]:
    owners: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for ci, c in enumerate(document.get("compiles", [])):
        for oi, o in enumerate(c.get("output_codes", [])):
            for k in o.get("kernels", []):
                if k["kind"] != "extern":
                    owners[k["name"]].append((ci, oi))
    rows = []
    for name, total in replayed.items():
        owner = owners.get(name, [])
        ci, oi = owner[0] if len(owner) == 1 else (None, None)
        rows.append({"name": name if ci is not None else f"{CUDA_GRAPH_REPLAY}{name}",
                     "compile": ci, "output": oi, "kind": "cudagraph",
                     "time_us": total / calls, "calls": None, "bytes": None, "flops": None})
    return rows


def profile_section(thunk: Callable[[], Any], document: dict[str, Any], cuda: bool,
                    wall_ms: float | None, budget_s: float = 0.5) -> dict[str, Any]:
    """The document's ``profile``: kernels with their roofline, lines, peaks and the step
    verdict. ``wall_ms`` is the compiled call's median from the timing samples (None: the
    profiled ``Torch-Compiled Region`` ranges stand in)."""
    calls = PROFILED_CALLS[1] if not wall_ms else \
        max(PROFILED_CALLS[0], min(PROFILED_CALLS[1], int(budget_s * 1e3 / wall_ms)))
    run = profile_run(thunk, document, calls, cuda)
    rows = run["kernels"]
    if wall_ms:
        wall_us, wall_source = wall_ms * 1e3, "median of the timing samples"
    elif run["region_us"]:
        wall_us, wall_source = run["region_us"], "the profiled Torch-Compiled Region ranges"
    else:
        wall_us, wall_source = run["cost_s"] * 1e6 / calls, "the profiled calls' wall time"
    dtypes = [d for d in (roofline.kernel_dtype(document, r) for r in rows
                          if r.get("compile") is not None) if d]
    peaks = measured_peaks(run["device"], dtypes or ["float32"])
    roofline.annotate_kernels(document, rows, peaks, wall_us)
    step = roofline.step_verdict(rows, wall_us, run["device"])
    step["wall_source"] = wall_source
    return {**run, **roll_up(document, rows, wall_us), "peaks": peaks, "step": step,
            "how": HOW[run["device"]]}
