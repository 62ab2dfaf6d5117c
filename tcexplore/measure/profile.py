"""Measured time of every kernel of a compiled run, from ``torch.profiler``.

The run's kernels are named in the timeline by ``instrument`` (a range per launch of each
generated kernel and extern call, qualified by its output module: kernel names repeat
across modules). On CPU a kernel's time is its range's wall time (Inductor's C++ kernels
and extern calls run synchronously); on CUDA it is the device time of the GPU kernels
launched inside the range. Kernels a CUDA graph replays have no launch of their own: the
profiler hangs them on the compiled region's or graph call's range (which one depends on
the profiler's settings; seen on an H100 with torch 2.11), so they are labelled as replayed
(and matched to a generated kernel by name when exactly one has it); their share of the
device time is ``cudagraph_share``. An extern call's FLOPs are torch's own estimate
(``with_flops``) for the ATen ops inside its range.

Two scopes: ``explore(profile=True)`` profiles a few calls of the compiled function after
its timing samples (times per call; :func:`profile_calls`); ``tcexplore run --profile``
profiles a script's steps (measure/run_profile.py's ``RunProfile``). Both make their
kernel rows with measure/kernel_rows.py's ``attribute`` and their ``profile`` with
:func:`finish`.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import torch
from torch.profiler import ProfilerActivity, profile, schedule

from . import below_roof, roofline
from .instrument import instrumented
from .kernel_rows import attribute
from .lines import roll_up
from .loop import back_to_back, batch_calls
from .native_stderr import quietly_entered, without_native_noise
from .peaks import measured_peaks
from .run_view import with_run

PROFILED_CALLS = (3, 50)
WARMUP_CALLS = 2
HOW = {
    "cpu": "torch.profiler; each kernel launch and extern call runs inside a profiler range "
    "of its own, and its time is that range's wall time (CPU kernels run "
    "synchronously)",
    "cuda": "torch.profiler (CUPTI); each GPU kernel's device time goes to the generated "
    "kernel or extern call whose profiler range launched it",
}
SCOPE = {
    "call": "per call of the compiled function, over calls profiled after the timing samples",
    "run": "summed over the steps the profiler recorded whole: windows from the run's start "
    "and from each compile after one closed, each until its first steady steps (the rest "
    "ran without it)",
}


def activities(cuda: bool) -> list[Any]:
    """What the profiler records: the host, and the GPU's kernels on CUDA."""
    return [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])


def profile_calls(
    thunk: Callable[[], Any],
    document: dict[str, Any],
    cuda: bool,
    wall_ms: float | None,
    budget_s: float = 0.5,
    step: str = "call",
) -> dict[str, Any]:
    """``explore(profile=True)``: profile calls of ``thunk`` (the compiled function on its
    inputs; ``step="cell"``: ``%%tcompile --profile``'s compiled cell body) after the timing
    samples. On CPU the step's wall time is the profiled calls'
    own (to completion, in the same period and with the profiler's overhead, so the
    kernels' share of it is consistent). On CUDA it is the time per call of calls made back
    to back, as a loop makes them, outside the profiler (measure/loop.py), timed before the
    profiler runs (a profiled pass slows the calls after it): the profiled calls' device
    time against the host's time to issue a call decides whether the GPU waits for the
    CPU. ``wall_ms``, the timing samples' median, is kept beside it. The same calls, each to
    completion, are timed without the profiler first: the run view's step as the program
    runs it."""
    calls = (
        PROFILED_CALLS[1]
        if not wall_ms
        else max(PROFILED_CALLS[0], min(PROFILED_CALLS[1], int(budget_s * 1e3 / wall_ms)))
    )
    started = time.perf_counter()
    figures = None
    if cuda:  # uninstrumented, unprofiled: the loop's own costs
        call_s = wall_ms / 1e3 if wall_ms else 1e-3
        figures = back_to_back(
            thunk, batch_calls(_document_launches(document), call_s, budget_s / 2)
        )
    plain = _timed_calls(thunk, calls, cuda)
    walls: list[float] = []
    with instrumented(document) as sites:
        if cuda:
            torch.cuda.synchronize()
        # The profiler's own first steps are slow: they warm up outside the recorded ones.
        with quietly_entered(
            profile(
                activities=activities(cuda),
                schedule=schedule(wait=0, warmup=WARMUP_CALLS, active=calls, repeat=1),
                acc_events=True,
            )
        ) as prof:
            for _ in range(WARMUP_CALLS + calls):
                began = time.perf_counter()
                thunk()
                if cuda:
                    torch.cuda.synchronize()
                walls.append(time.perf_counter() - began)
                with without_native_noise():  # the schedule starts and stops it in a step
                    prof.step()
    events = prof.events()
    run = attribute(events, sites, document, calls, cuda)
    wall_us = sum(walls[WARMUP_CALLS:]) / calls * 1e6
    wall = (wall_us, "the profiled calls, each timed to completion")
    if figures is not None:
        figures["other_us"] = run["other_us"]
        wall = (
            figures["loop_us"],
            f"calls back to back, as a loop makes them: CUDA events "
            f"around {figures['calls']} calls, median of {figures['batches']} batches",
        )
    section = finish(
        document,
        run,
        wall,
        scope="call",
        profiled_calls=calls,
        cost_s=time.perf_counter() - started,
        loop=figures,
    )
    section["step"]["timing_wall_us"] = wall_ms * 1e3 if wall_ms else None
    unprofiled = {"per_step_us": plain, "steps": calls, "basis": "calls"}
    return with_run(
        section, events, document, by_calls=True, cuda=cuda, step=step, unprofiled=unprofiled
    )


def _document_launches(document: dict[str, Any]) -> int:
    """Launch lines of every output code of the document: at most the launches of a call
    (every graph, forward and backward), what a batch of calls must fit in the queue by."""
    return sum(
        len(k.get("launch_sites") or [None])
        for c in document.get("compiles") or []
        for o in c.get("output_codes") or []
        for k in o.get("kernels") or []
    )


def _timed_calls(thunk: Callable[[], Any], calls: int, cuda: bool) -> float:
    """µs per call, mean of ``calls`` calls each timed to completion, no profiler, no
    kernel ranges: the profiled steps' own measure without them."""
    walls = []
    for _ in range(calls):
        if cuda:
            torch.cuda.synchronize()
        began = time.perf_counter()
        thunk()
        if cuda:
            torch.cuda.synchronize()
        walls.append(time.perf_counter() - began)
    return statistics.mean(walls) * 1e6


def finish(
    document: dict[str, Any],
    run: dict[str, Any],
    wall: tuple[float, str],
    *,
    scope: str,
    profiled_calls: int,
    cost_s: float,
    loop: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Kernels with their roofline, lines, peaks and the step verdict: the ``profile``;
    ``loop``: a GPU's back-to-back figures, which decide the verdict."""
    rows = run["kernels"]
    wall_us, wall_source = wall
    dtypes = [
        d
        for d in (roofline.kernel_dtype(document, r) for r in rows if r.get("compile") is not None)
        if d
    ]
    peaks = measured_peaks(run["device"], dtypes or ["float32"])
    roofline.annotate_kernels(document, rows, peaks, wall_us)
    if peaks["cached"] and roofline.beats_peaks(rows, peaks):
        peaks = measured_peaks(run["device"], dtypes or ["float32"], refresh=True)
        roofline.annotate_kernels(document, rows, peaks, wall_us)
    sources = {
        i: (roofline.document_kernel(document, r) or {}).get("source") or ""
        for i, r in enumerate(rows)
    }
    below_roof.annotate(rows, sources, peaks, run["device"])
    step = roofline.step_figures(rows, wall_us, loop)  # judged by findings/step_verdict.py
    step["wall_source"] = wall_source
    return {
        **run,
        **roll_up(document, rows, wall_us),
        "peaks": peaks,
        "step": step,
        "scope": scope,
        "profiled_calls": profiled_calls,
        "cost_s": cost_s,
        "how": f"{HOW[run['device']]}; {SCOPE[scope]}",
    }
