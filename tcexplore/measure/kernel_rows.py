"""Kernel rows from a profiler's events: each event's time given to the generated kernel
or extern call whose range launched it.

``instrument`` names every launch of a generated kernel and extern call with a range of its
own; :func:`attribute` adds up, per kernel, the time of the events inside those ranges (the
range's wall time on CPU, the device time of the GPU kernels it launched on CUDA) and labels
the kernels a CUDA graph replayed, which have no range of their own (the profiler hangs them
on the compiled region's or graph call's range). Calls that compiled are left out, named by
torch's own compile ranges (:func:`compiling_calls`).
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from torch.autograd import DeviceType

from .. import _torch_compat
from .instrument import RANGE_PREFIX, KernelSite

CUDA_GRAPH_REPLAY = "CUDA graph replay: "
# The profiler range around a compiled graph's call. A kernel launched straight from it, with
# no kernel range of its own, was replayed by a CUDA graph (when torch recorded any).
COMPILED_GRAPH_CALL = "## Call CompiledFxGraph"
COMPILED_REGION = "Torch-Compiled Region"  # ": <compile id>" follows


def _launch_of(name: str) -> tuple[int, int] | None:
    """(site, launch) of an instrumented range's name, or None."""
    if name.startswith(RANGE_PREFIX):
        site, _, launch = name[len(RANGE_PREFIX) :].partition("@")
        if site.isdigit() and launch.isdigit():
            return int(site), int(launch)
    return None


def _ancestors(event: Any) -> list[Any]:
    chain = []
    while event is not None:
        chain.append(event)
        event = event.cpu_parent
    return chain


def _is_compiled(event: Any) -> bool:
    """A range of compiled code: a Dynamo-compiled region, or a compiled graph's call
    (the backward's runs from autograd, outside any region)."""
    return event.name.startswith((COMPILED_REGION, COMPILED_GRAPH_CALL))


def _outermost_call(event: Any) -> Any:
    """The outermost compiled range ``event`` lies in (itself included), or None."""
    return next((a for a in reversed(_ancestors(event)) if _is_compiled(a)), None)


def _within(spans: list[tuple[float, float]] | None) -> Callable[[Any], bool]:
    """Whether a call starts inside one of ``spans`` (None: every call counts)."""
    if spans is None:
        return lambda call: True
    spans = sorted(spans)
    starts = [start for start, _ in spans]

    def kept(call: Any) -> bool:
        k = bisect.bisect_right(starts, call.time_range.start) - 1
        return k >= 0 and call.time_range.start < spans[k][1]

    return kept


def compiling_calls(
    events: list[Any], within: list[tuple[float, float]] | None = None
) -> dict[str, Any]:
    """Calls of compiled code (outermost compiled ranges) and those during which torch
    compiled: a graph break's resume function or a recompile compiles inside the call that
    reaches it, and such a call's time is mostly compile. Told by torch's own compile ranges
    (``_torch_compat.is_compile_range``). ``within``: the spans a call must start in to
    count (a run's steps recorded whole: a call the profiler's stop cut, or one it entered
    before a window opened, is not one)."""
    kept = _within(within)
    outermost = [
        e
        for e in events
        if e.device_type == DeviceType.CPU
        and _is_compiled(e)
        and _outermost_call(e) is e
        and kept(e)
    ]
    compiling = {
        id(call): call
        for call in (
            _outermost_call(e)
            for e in events
            if e.device_type == DeviceType.CPU and _torch_compat.is_compile_range(e.name)
        )
        if call is not None and kept(call)
    }
    steady = [e.cpu_time_total for e in outermost if id(e) not in compiling]
    return {
        "steady": len(steady),
        "compiling": len(compiling),
        "compiling_us": sum(call.cpu_time_total for call in compiling.values()),
        "per_call_us": sum(steady) / len(steady) if steady else None,
        "compiling_ids": set(compiling),
    }


def _output_locations(document: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Output module path -> (compile index, output index)."""
    return {
        o["path"]: (ci, oi)
        for ci, c in enumerate(document.get("compiles", []))
        for oi, o in enumerate(c.get("output_codes", []))
        if o.get("path")
    }


@dataclass
class _Tally:
    """The profiled events summed: per launch line of an instrumented kernel (site index,
    launch index) its time and launches; per kernel a CUDA graph replayed its device time;
    the device time no range claims; the compiled calls' own time."""

    time_us: dict[tuple[int, int], float] = field(default_factory=lambda: defaultdict(float))
    launches: dict[tuple[int, int], int] = field(default_factory=lambda: defaultdict(int))
    replayed: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    other_device_us: float = 0.0
    region_us: float = 0.0


def _launch_owner(event: Any) -> tuple[int, int] | None:
    """The instrumented launch whose range ``event`` lies in (itself included), or None."""
    chain = _ancestors(event)
    return next((i for i in (_launch_of(a.name) for a in chain) if i is not None), None)


def _tally(
    events: list[Any],
    compiling_ids: set[int],
    kept: Callable[[Any], bool],
    cuda: bool,
    graphs_recorded: bool,
) -> _Tally:
    """The host events of the calls kept (none during which torch compiled) summed, with
    the GPU kernels each launched on CUDA."""
    tally = _Tally()
    for event in events:
        if event.device_type != DeviceType.CPU:
            continue  # on CUDA a range also shows as a GPU-side annotation of the same name
        call = _outermost_call(event)
        if id(call) in compiling_ids or not kept(call or event):
            continue
        if call is event:
            tally.region_us += event.cpu_time_total
        launch = _launch_of(event.name)
        if launch is not None:
            tally.launches[launch] += 1
            if not cuda:
                tally.time_us[launch] += event.cpu_time_total
        if not cuda:
            continue
        for kernel in getattr(event, "kernels", []) or []:
            owner = _launch_owner(event)
            if owner is not None:
                tally.time_us[owner] += kernel.duration
            elif graphs_recorded and _is_compiled(event):
                tally.replayed[kernel.name] += kernel.duration  # no op of its own launched it
            else:
                tally.other_device_us += kernel.duration
    return tally


def _site_rows(
    sites: list[KernelSite], tally: _Tally, document: dict[str, Any], steps: int
) -> list[dict[str, Any]]:
    """A kernel row per instrumented kernel of the document that ran, per step."""
    where = _output_locations(document)
    time_us, launches = tally.time_us, tally.launches
    rows = []
    for site in sites:
        ran = [(site.index, j) for j in range(len(site.lines))]
        count = sum(launches[k] for k in ran)
        if count and site.path in where:
            ci, oi = where[site.path]
            rows.append(
                {
                    "name": site.name,
                    "label": site.label,
                    "compile": ci,
                    "output": oi,
                    "kernel": site.kernel,
                    "kind": site.kind,
                    "time_us": sum(time_us[k] for k in ran) / steps,  # per step
                    "calls": count / steps,  # launches per step
                    # each launch line of the module: its own time and launches per step
                    "launch_sites": [
                        {"line": line, "time_us": time_us[k] / steps, "calls": launches[k] / steps}
                        for line, k in zip(site.lines, ran)
                    ],
                    "bytes": site.bytes,  # per launch
                    # per launch: torch's estimate for an extern call; a generated kernel's
                    # are counted from its nodes (roofline.kernel_flops)
                    "flops": site.flops if site.kind == "extern" and site.flops else None,
                    # minor page faults per launch, over every launch of the profile
                    "page_faults": site.page_faults / site.launches if site.launches else None,
                }
            )
    return rows


def attribute(
    events: list[Any],
    sites: list[KernelSite],
    document: dict[str, Any],
    steps: int,
    cuda: bool,
    within: list[tuple[float, float]] | None = None,
) -> dict[str, Any]:
    """The profiler's events as kernel rows, with time per step (``steps`` profiled).
    Calls during which torch compiled, and calls outside ``within``, are left out (see
    :func:`compiling_calls`)."""
    graphs_recorded = any(
        c.get("cudagraphs", {}).get("recordings") for c in document.get("compiles", [])
    )
    calls, kept = compiling_calls(events, within), _within(within)
    tally = _tally(events, calls["compiling_ids"], kept, cuda, graphs_recorded)
    rows = _site_rows(sites, tally, document, steps)
    rows += _replay_rows(tally.replayed, document, steps)
    device_total = sum(r["time_us"] for r in rows) + tally.other_device_us / steps
    return {
        "device": "cuda" if cuda else "cpu",
        "calls": {k: v for k, v in calls.items() if k != "compiling_ids"},
        "region_us": tally.region_us / steps if tally.region_us else None,
        "kernels": sorted(rows, key=lambda r: -r["time_us"]),
        "other_us": tally.other_device_us / steps,
        "cudagraph_share": (
            sum(r["time_us"] for r in rows if r["kind"] == "cudagraph") / device_total
        )
        if cuda and device_total
        else None,
    }


def _replay_rows(
    replayed: dict[str, float], document: dict[str, Any], steps: int
) -> list[dict[str, Any]]:
    owners: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for ci, c in enumerate(document.get("compiles", [])):
        for oi, o in enumerate(c.get("output_codes", [])):
            for ki, k in enumerate(o.get("kernels", [])):
                if k["kind"] != "extern":
                    owners[k["name"]].append((ci, oi, ki))
    rows = []
    for name, total in replayed.items():
        owner = owners.get(name, [])
        ci, oi, ki = owner[0] if len(owner) == 1 else (None, None, None)
        label = name if ci is not None else f"{CUDA_GRAPH_REPLAY}{name}"
        rows.append(
            {
                "name": label,
                "label": label,
                "compile": ci,
                "output": oi,
                "kernel": ki,
                "kind": "cudagraph",
                "time_us": total / steps,
                "calls": None,
                "bytes": None,
                "flops": None,
            }
        )
    return rows
