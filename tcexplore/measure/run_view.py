"""The run view (``profile.run``): each compile (cache entry) that ran, with its measured
time, and the eager gaps between compiled code, each put down to what made it, over the
steady steps of a profiled window (measure/run_pieces.py tells the stretches and steps).

A step that holds a range torch opens while compiling (``_torch_compat.is_compile_range``)
compiled, and is left out of the figures, as is a run's last step (its end is not told by
anything that ran). Time in a step that no compiled code covers is eager: before its first
compiled code, or outside any compiled frame. So in every steady step the frames' time and
the gaps' time add up to the step's. The words (labels, the headline) are
findings/run_view.py's.
"""

from __future__ import annotations

import bisect
import statistics
from collections import defaultdict
from typing import Any

from torch.autograd import DeviceType

from .. import _torch_compat
from ..common.contained import Unread, error_text
from ..findings.run_view import label_run
from .run_detail import entry_split, gap_names, guard_times
from .run_pieces import (
    Key,
    Piece,
    breaks,
    kernel_time,
    marked_steps,
    pieces_of,
    step_bounds,
    step_pieces,
)

TIMELINE_SPANS = 200
NAMES_KEPT = 6  # an eager gap's heaviest names kept
HOW = (
    "torch.profiler's ranges: each compile's own time is its 'Torch-Compiled Region' range "
    "less the regions nested in it and, where it broke, less the break's eager code after "
    "its graph's call; a compiled backward's is its CompiledFunctionBackward calls; time in a "
    "step that no compiled code covers is eager; kernels' time is {kernels}"
)
KERNEL_TIME = {
    "cpu": "their profiler ranges' wall time",
    "cuda": "the device time of the GPU kernels launched inside the compile's code",
}


def run_section(
    events: list[Any],
    document: dict[str, Any],
    *,
    by_calls: bool,
    cuda: bool,
    step: str = "call",
    unprofiled: dict[str, Any] | None = None,
    marked: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """``profile.run`` from the profiler's events; ``by_calls``: a ``ProfilerStep`` is a
    step (one ``step``: an explored call, or a run of a cell's body), else each entry of the
    run's first compiled frame starts one. ``unprofiled``: the same steps timed without the
    profiler (measure/profile.py, measure/run_profile.py), held beside the profiled ones.
    ``marked``: what a run's step markers saw of every step (``count``, ``compiled``;
    ``stops``: the steps in which a profiler window stopped). None when no step ran
    compiled code."""
    cpu = [e for e in events if e.device_type == DeviceType.CPU]
    own_break, resumed = breaks(document)
    pieces, entries = pieces_of(cpu, own_break, resumed)
    bounds, first, count, compiled_seen = _bounds(cpu, pieces, by_calls, marked)
    if not bounds:
        return None
    at = _step_at(bounds)
    compiling = set(compiled_seen) | {
        i for e in cpu if _torch_compat.is_compile_range(e.name) if (i := at(e)) is not None
    }
    steady = sorted(i for i in bounds if i not in compiling)
    ends = [p.end for p in pieces]
    steps = {i: step_pieces(pieces, ends, *bounds[i]) for i in steady}
    counted = {id(e) for e, _ in entries if at(e) in steps}
    frames = _frames(cpu, entries, steps, counted, cuda, document)
    gaps = _gaps(steps, gap_names(cpu, steps))
    duration = {i: bounds[i][1] - bounds[i][0] for i in steady}
    per_step = sum(duration.values()) / len(steady) if steady else 0.0
    compiled = sum(f["total_us"] for f in frames) / len(steady) if steady else 0.0
    run = {
        "how": HOW.format(kernels=KERNEL_TIME["cuda" if cuda else "cpu"]),
        "steps": {
            "count": count,
            "compiled": sorted(i for i in compiling if 0 <= i < count),
            "steady": len(steady),
            "profiled": _windows(sorted(bounds)),
        },
        "wall_us": sum(end - start for start, end in bounds.values()),
        "per_step_us": per_step,
        "compiled_us": compiled,
        "eager_us": per_step - compiled,
        "compiled_share": min(1.0, compiled / per_step) if per_step else 0.0,
        "frames": frames,
        "gaps": gaps,
        "timeline": _timeline(steps, duration, bounds, frames, gaps),
        "unprofiled": _unprofiled(unprofiled, per_step),
    }
    optimizers = run["unprofiled"].get("optimizer_us") or {}
    for gap in gaps:
        for name in gap["names"]:
            found = optimizers.get(name["name"].partition("#")[2].partition(".")[0])
            name["unprofiled_us"] = found if name["kind"] == "optimizer_step" else None
    return label_run(run, document, first, step)


def _bounds(
    cpu: list[Any], pieces: list[Piece], by_calls: bool, marked: dict[str, Any] | None
) -> tuple[dict[int, tuple[float, float]], str | None, int, list[int]]:
    """The steps recorded whole (index -> (start, end)), the compile whose frame's entries
    start them (None: profiler steps), how many steps there were, and those that compiled
    as the markers saw them: a run's numbered steps where the markers ran, else the
    profiler's steps or the first frame's regions (the last region's step left out, its
    end being unrecorded)."""
    if marked is not None and not by_calls:
        bounds, first = marked_steps(cpu, set(marked.get("stops") or ()))
        if bounds:
            return bounds, first, max(marked["count"], max(bounds) + 2), marked["compiled"]
    listed, first = step_bounds(cpu, pieces, by_calls) if pieces else ([], None)
    whole = listed if by_calls else listed[:-1]
    return dict(enumerate(whole)), first, len(listed), []


def _step_at(bounds: dict[int, tuple[float, float]]) -> Any:
    """A function from an event to the recorded step its start lies in (None: none)."""
    order = sorted(bounds)
    starts = [bounds[i][0] for i in order]

    def at(event: Any) -> int | None:
        k = bisect.bisect_right(starts, event.time_range.start) - 1
        if k < 0 or event.time_range.start >= bounds[order[k]][1]:
            return None
        return order[k]

    return at


def _windows(indices: list[int]) -> list[list[int]]:
    """Runs of consecutive step indices as [first, last] pairs."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return runs


def _unprofiled(measured: dict[str, Any] | None, profiled_us: float) -> dict[str, Any]:
    """The steps as the program runs them, without the profiler, and how much slower the
    profiled ones were (``slowdown``: profiled / unprofiled; None where none was timed)."""
    found = dict(measured or {"per_step_us": None, "steps": 0, "basis": "none"})
    plain = found.get("per_step_us")
    found["slowdown"] = profiled_us / plain if plain and profiled_us else None
    return found


def _frames(
    cpu: list[Any],
    entries: list[tuple[Any, Key]],
    steps: dict[int, list[Piece]],
    counted: set[int],
    cuda: bool,
    document: dict[str, Any],
) -> list[dict[str, Any]]:
    total: dict[Key, float] = defaultdict(float)
    for pieces in steps.values():
        for p in pieces:
            if p.frame is not None:
                total[p.frame] += p.end - p.start
    kernels_of = kernel_time(cpu, cuda)
    entered: dict[Key, int] = defaultdict(int)
    kernel_us: dict[Key, float] = defaultdict(float)
    launch_us: dict[Key, float] = defaultdict(float)
    for event, key in entries:
        if id(event) not in counted:
            continue
        entered[key] += 1
        kernels, launches = kernels_of.get(id(event), (0.0, 0.0))
        kernel_us[key] += kernels
        launch_us[key] += launches
    index = {c["id"]: i for i, c in enumerate(document.get("compiles") or [])}
    compiles = document.get("compiles") or []
    split, guards = entry_split(entries, counted), guard_times(cpu, counted)
    rows = []
    for key, time in total.items():
        cid, backward = key
        ci = index.get(cid)
        frame = (compiles[ci].get("frame") or {}) if ci is not None else {}
        count = max(entered[key], 1)
        outside = time - (launch_us[key] if cuda else kernel_us[key])
        metrics = (compiles[ci].get("metrics") or {}) if ci is not None and not backward else {}
        rows.append(
            {
                "compile_id": cid,
                "compile": ci,
                "frame": frame.get("function") or "?",
                "file": frame.get("file"),
                "line": frame.get("line") if isinstance(frame.get("line"), int) else None,
                "backward": backward,
                "entered": entered[key],
                "per_step": entered[key] / len(steps),
                "total_us": time,
                "mean_us": time / count,
                "kernel_us": kernel_us[key],
                "outside_us": max(0.0, outside),
                "hot": None,
                "guard_us": None if backward else guards.get(cid),
                "guard_latency_us": metrics.get("guard_latency_us"),
                "outside_split": _split(split.get(key), time / count, cuda, backward),
            }
        )
    by_frame: dict[tuple[str, bool], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_frame[(row["compile_id"].rsplit("/", 1)[0], row["backward"])].append(row)
    for entries in by_frame.values():
        if len(entries) > 1:
            hottest = max(entries, key=lambda r: r["total_us"])
            for row in entries:
                row["hot"] = row is hottest
    return sorted(rows, key=lambda r: -r["total_us"])


def _split(
    found: dict[str, float] | None, own_us: float, cuda: bool, backward: bool
) -> dict[str, float] | None:
    """A frame's own time per entry by what ran it (measure/run_detail.py): Dynamo's
    bytecode around the graph (the rest of a forward entry), AOTAutograd's wrapper,
    Inductor's wrapper code, the launches (on CUDA their host time; on CPU the kernels)."""
    if not found:
        return None
    split = {k: found.get(k, 0.0) for k in ("aot_us", "wrapper_us", "launch_us")}
    split["dynamo_us"] = 0.0 if backward else max(0.0, own_us - sum(split.values()))
    return split


def _gaps(
    steps: dict[int, list[Piece]], names: dict[tuple, list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    count: dict[tuple[str, int | None], int] = defaultdict(int)
    total: dict[tuple[str, int | None], float] = defaultdict(float)
    for pieces in steps.values():
        for p in pieces:
            if p.gap is not None:
                count[p.gap] += p.counted
                total[p.gap] += p.end - p.start
    return sorted(
        (
            {
                "kind": kind,
                "break": brk,
                "count": count[(kind, brk)],
                "total_us": time,
                "per_step_us": time / len(steps),
                "names": [
                    {**n, "per_step_us": n["total_us"] / len(steps)}
                    for n in names.get((kind, brk), [])[:NAMES_KEPT]
                ],
            }
            for (kind, brk), time in total.items()
        ),
        key=lambda g: -g["total_us"],
    )


def _timeline(
    steps: dict[int, list[Piece]],
    duration: dict[int, float],
    bounds: list[tuple[float, float]],
    frames: list[dict[str, Any]],
    gaps: list[dict[str, Any]],
) -> dict[str, Any]:
    if not steps:
        return {"step": 0, "duration_us": 0.0, "spans": [], "spans_left_out": 0}
    median = statistics.median_low(duration.values())
    step = min(i for i in steps if duration[i] == median)
    frame_of = {(f["compile_id"], f["backward"]): i for i, f in enumerate(frames)}
    gap_of = {(g["kind"], g["break"]): i for i, g in enumerate(gaps)}
    origin = bounds[step][0]
    spans = [
        {
            "kind": "compiled" if p.frame else "eager",
            "start_us": p.start - origin,
            "end_us": p.end - origin,
            "frame": frame_of.get(p.frame) if p.frame else None,
            "gap": gap_of.get(p.gap) if p.gap else None,
        }
        for p in steps[step]
    ]
    return {
        "step": step,
        "duration_us": duration[step],
        "spans": spans[:TIMELINE_SPANS],
        "spans_left_out": max(0, len(spans) - TIMELINE_SPANS),
    }


def with_run(
    section: dict[str, Any], events: list[Any], document: dict[str, Any], **how: Any
) -> dict[str, Any]:
    """The profile with its run view (measure/run_view.py) where a step ran compiled code;
    a run view that fails costs only itself: an entry of ``capture.unread``."""
    try:
        run = run_section(events, document, **how)
    except Exception as exc:  # noqa: BLE001 - the profile is kept without it
        capture = document.get("capture")
        if isinstance(capture, dict):
            kept, unread = capture.get("unread") or {}, Unread()
            unread.items = list(kept.get("items") or [])
            unread.counts.update(
                {k: v for k, v in (kept.get("counts") or {}).items() if k in unread.counts}
            )
            unread.add("section", "profile.run", error=error_text(exc))
            capture["unread"] = unread.section()
        return section
    return {**section, "run": run} if run is not None else section
