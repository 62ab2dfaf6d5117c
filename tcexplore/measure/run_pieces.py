"""A profiled window as stretches of compiled and eager code, and its steps.

From the profiler's own ranges (measure/run_view.py says what it makes of them):

- ``Torch-Compiled Region: <compile id>`` opens around the run of a cache entry's code,
  after its guards passed. A frame that broke runs its graph, then the breaking code
  eagerly, then calls the resume function, whose region opens *inside* the frame's. So a
  region's own time is its range less the regions nested in it; of that, what comes after
  its graph's call (``CompiledFunction``, or ``## Call CompiledFxGraph`` without autograd)
  is the break's eager code when the compile broke (torch recorded a break for it, or a
  region is nested in it), and is put down to that break (the nested resume compile's
  ``resume_of``, else the compile's own last break).
- ``CompiledFunctionBackward`` is the compiled backward's autograd node: its calls are the
  backward of the compile whose ``CompiledFunction`` has the same sequence number. One that
  runs inside a region (the frame broke at ``loss.backward()``, so the backward runs in the
  break's eager code) is cut out of that region's time, as a nested region is.
- a step is a ``ProfilerStep`` up to its last compiled code (``explore(profile=True)``: one
  call of the function; the rest of the profiler step is tcexplore's harness), or, in a
  whole run, each entry of the first compiled frame that ran starts one: the step markers
  (measure/step_markers.py) number each entry in a ``tcexplore step #<n>`` range, inside
  the region that entered the frame, while a profiler window records. A numbered step runs
  from its region's start to the next step's, where the window recorded that one too (the
  step in which a window stopped has no end it recorded). Without the markers' ranges (the
  frame compiled before the capture opened) each entry of the first frame's regions starts
  a step and the last one ends with its last compiled code.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from .instrument import RANGE_PREFIX

REGION = "Torch-Compiled Region: "  # then the compile id
GRAPH_CALLS = ("CompiledFunction", "## Call CompiledFxGraph")  # exact / a prefix
BACKWARD = "CompiledFunctionBackward"
PROFILER_STEP = "ProfilerStep"
STEP_RANGE = "tcexplore step #"  # then the step's index (measure/run_profile.py's RunProfile)
WINDOW_RANGE = "tcexplore window"  # where a profiler window's clock meets the host's
Key = tuple[str, bool]  # (compile id, backward)


@dataclass
class Piece:
    """A stretch of one step: compiled code of ``frame``, or eager code put down to ``gap``."""

    start: float
    end: float
    frame: Key | None = None
    gap: tuple[str, int | None] | None = None  # (kind, graph_breaks index)
    counted: bool = True  # False: the tail of a gap already counted (a break's return path)


def owner(event: Any) -> Any:
    """The region or compiled backward call ``event`` lies in (itself included), or None."""
    while event is not None:
        if event.name.startswith(REGION) or event.name == BACKWARD:
            return event
        event = event.cpu_parent
    return None


def _enclosing_region(event: Any) -> Any:
    parent = event.cpu_parent
    while parent is not None and not parent.name.startswith(REGION):
        parent = parent.cpu_parent
    return parent


def compile_id(region: Any) -> str:
    return region.name[len(REGION) :].strip()


def breaks(document: dict[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """Per compile id: its last break event, and the break a resume compile continues."""
    own: dict[str, int] = {}
    for i, brk in enumerate(document.get("graph_breaks") or []):
        if brk.get("compile_id"):
            own[brk["compile_id"]] = i
    resumed = {
        c["id"]: c["resume_of"]["graph_break"]
        for c in document.get("compiles") or []
        if isinstance(c.get("resume_of"), dict)
        and isinstance(c["resume_of"].get("graph_break"), int)
    }
    return own, resumed


def _region_pieces(
    region: Any,
    nested: list[Any],
    backward: list[Any],
    own_break: dict[str, int],
    resumed: dict[str, int],
) -> list[Piece]:
    """A region's own time: compiled up to its graph's call's end, then (when it broke) the
    break's eager code, the nested regions and the compiled backward calls in it (a break
    at ``loss.backward()``) cut out."""
    cid = compile_id(region)
    start, end = region.time_range.start, region.time_range.end
    broke = cid in own_break or bool(nested)
    graph_end = start
    stack = list(region.cpu_children)
    while stack:
        child = stack.pop()
        if child.name.startswith(REGION) or child.name == BACKWARD:
            continue
        if child.name == GRAPH_CALLS[0] or child.name.startswith(GRAPH_CALLS[1]):
            graph_end = max(graph_end, child.time_range.end)
        else:
            stack.extend(child.cpu_children)
    if not broke:
        graph_end = end
    brk = next(
        (resumed[compile_id(n)] for n in nested if compile_id(n) in resumed), own_break.get(cid)
    )
    pieces, at = [], start
    for cut in [*sorted(nested + backward, key=lambda n: n.time_range.start), None]:
        stop = cut.time_range.start if cut is not None else end
        if at < min(stop, graph_end):
            pieces.append(Piece(at, min(stop, graph_end), frame=(cid, False)))
        if max(at, graph_end) < stop:
            counted = not any(p.gap for p in pieces)
            pieces.append(
                Piece(max(at, graph_end), stop, gap=("graph_break", brk), counted=counted)
            )
        if cut is not None:
            at = cut.time_range.end
    return pieces


def pieces_of(
    cpu: list[Any], own_break: dict[str, int], resumed: dict[str, int]
) -> tuple[list[Piece], list[tuple[Any, Key]]]:
    """Every stretch of compiled code (and of a break's eager code inside a region), in
    order, and the ranges that entered compiled code with the row each counts for."""
    forward_of = {}  # sequence number -> compile id of the CompiledFunction call
    nested: dict[int, list[Any]] = defaultdict(list)
    regions = []
    for event in cpu:
        if event.name.startswith(REGION):
            regions.append(event)
            parent = _enclosing_region(event)
            if parent is not None:
                nested[id(parent)].append(event)
        elif event.name == GRAPH_CALLS[0] and event.sequence_nr >= 0:
            region = _enclosing_region(event)
            if region is not None:
                forward_of[event.sequence_nr] = compile_id(region)
    entries = [(r, (compile_id(r), False)) for r in regions]
    backward: dict[int, list[Any]] = defaultdict(list)  # by the region they ran in, if any
    pieces = []
    for event in cpu:
        if event.name == BACKWARD:
            cid = forward_of.get(event.sequence_nr)
            if cid is not None:
                entries.append((event, (cid, True)))
                backward[id(_enclosing_region(event))].append(event)
                pieces.append(
                    Piece(event.time_range.start, event.time_range.end, frame=(cid, True))
                )
    pieces += [
        p
        for r in regions
        for p in _region_pieces(r, nested[id(r)], backward[id(r)], own_break, resumed)
    ]
    pieces.sort(key=lambda p: p.start)
    reached = float("-inf")
    for piece in pieces:  # another thread's range overlapping: cut to what is not covered
        piece.start = min(max(piece.start, reached), piece.end)
        reached = max(reached, piece.end)
    return [p for p in pieces if p.end > p.start], entries


def step_bounds(
    cpu: list[Any], pieces: list[Piece], by_calls: bool
) -> tuple[list[tuple[float, float]], str | None]:
    """Each step's (start, end), and the compile whose frame's entries start them."""
    if by_calls:  # a call ends with its last compiled code: the rest is the harness's
        calls = sorted(
            (e.time_range.start, e.time_range.end)
            for e in cpu
            if e.name.startswith(PROFILER_STEP) and e.cpu_parent is None
        )
        ends = [p.end for p in pieces]
        bounds = []
        for start, end in calls:
            last = bisect.bisect_right(ends, end) - 1
            bounds.append((start, ends[last] if last >= 0 and ends[last] > start else end))
        return bounds, None
    regions = sorted(
        (e for e in cpu if e.name.startswith(REGION) and _enclosing_region(e) is None),
        key=lambda e: e.time_range.start,
    )
    if not regions:
        return [], None
    first = compile_id(regions[0]).rsplit("/", 1)[0]
    starts = [r.time_range.start for r in regions if compile_id(r).rsplit("/", 1)[0] == first]
    last_end = max(p.end for p in pieces)
    return list(zip(starts, [*starts[1:], last_end])), compile_id(regions[0])


def marked_steps(
    cpu: list[Any], stops: set[int]
) -> tuple[dict[int, tuple[float, float]], str | None]:
    """The steps the markers numbered (their ``STEP_RANGE`` ranges) that a window recorded
    whole: index -> (start, end); ``stops``: the steps in which a window stopped. And the
    compile whose region holds the first step's range. A step starts where the outermost
    region holding its range does (a region the profiler's stop cut short keeps no
    children: the one of its thread that spans the range)."""
    outermost = sorted(
        (e for e in cpu if e.name.startswith(REGION) and _enclosing_region(e) is None),
        key=lambda e: e.time_range.start,
    )
    starts = [e.time_range.start for e in outermost]
    marks: dict[int, tuple[float, str | None]] = {}
    for event in cpu:
        index = event.name[len(STEP_RANGE) :] if event.name.startswith(STEP_RANGE) else ""
        if not index.isdigit():
            continue
        at = event.time_range.start
        k = bisect.bisect_right(starts, at) - 1
        while k >= 0 and outermost[k].thread != event.thread:
            k -= 1
        region = outermost[k] if k >= 0 and outermost[k].time_range.end >= at else None
        marks[int(index)] = (
            region.time_range.start if region is not None else at,
            compile_id(region) if region is not None else None,
        )
    bounds = {
        i: (start, marks[i + 1][0])
        for i, (start, _) in marks.items()
        if i + 1 in marks and i not in stops
    }
    return bounds, marks[min(marks)][1] if marks else None


def step_pieces(pieces: list[Piece], ends: list[float], start: float, end: float) -> list[Piece]:
    """The step's stretches, its eager time between compiled code filled in; ``ends``: the
    pieces' ends, in order."""
    out, at = [], start
    for index in range(bisect.bisect_left(ends, start), len(pieces)):
        p = pieces[index]
        if p.start >= end:
            break
        p_start, p_end = max(p.start, at), min(p.end, end)
        if p_start >= p_end:
            continue
        if p_start > at:
            kind = "before_first" if not out else "between_steps"
            out.append(Piece(at, p_start, gap=(kind, None)))
        out.append(Piece(p_start, p_end, frame=p.frame, gap=p.gap, counted=p.counted))
        at = p_end
    if at < end:
        out.append(Piece(at, end, gap=("before_first" if not out else "between_steps", None)))
    return out


def kernel_time(cpu: list[Any], cuda: bool) -> dict[int, tuple[float, float]]:
    """Per owner (region or backward call, by id): its kernels' time, and the host time of
    its kernel launch ranges."""
    kernels: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for event in cpu:
        launch = event.name.startswith(RANGE_PREFIX)
        device = cuda and getattr(event, "kernels", None)
        if not launch and not device:
            continue
        where = owner(event)
        if where is None:
            continue
        if launch:
            kernels[id(where)][1] += event.cpu_time_total
            if not cuda:
                kernels[id(where)][0] += event.cpu_time_total
        if device:
            kernels[id(where)][0] += sum(k.duration for k in event.kernels)
    return {k: (v[0], v[1]) for k, v in kernels.items()}
