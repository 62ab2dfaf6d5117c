"""The eager milliseconds of a profiled run, named: each eager gap over
:data:`GAP_SHARE` of a step says what ran there (torch's own profiler ranges, stored by
measure/run_detail.py: the optimizer's step, zeroing gradients, loading a batch, the
autograd engine, ATen ops, Dynamo's cache lookup) with its time per step, and the advice
that fits the heaviest; an eager optimizer step over that share (of the step as the program
runs it, where both were timed without the profiler) is a finding of its own, whose advice
is to compile it. A graph break's gap is run_view's finding."""

from __future__ import annotations

from typing import Any

from ..common.formatting import share, time_us
from . import fixes
from .make import finding, tab_link
from .run_view import each_step

Data = dict[str, Any]

GAP_SHARE = 0.05  # an eager gap, or an optimizer step, this much of a step is named
NAMES_SAID = 3
COMPILE_OPTIMIZER = (
    "Compile the optimizer step: torch's recipe wraps it in a compiled function "
    "(`@torch.compile(fullgraph=False)` over `def step(): opt.step()`), or "
    "`opt.step = torch.compile(opt.step)`; its many small per-parameter ops then run as a "
    "few fused kernels (the first steps compile it)"
)
ADVICE = {
    "optimizer_step": COMPILE_OPTIMIZER,
    "backward": "The autograd engine runs the backward of eager code here (the loss, code "
    "between compiled frames): compute it inside the compiled function so its backward is "
    "compiled too",
    "ops": "Eager ATen ops run here, outside compiled code: move this code into the compiled "
    "function so its ops fuse",
    "guards": "Dynamo's cache lookup evaluates each compiled frame's guards at every entry: "
    "the frames table says how long per entry",
}
SINGLE_PROCESS_LOADER = "_SingleProcessDataLoaderIter"


def _advice(name: Data) -> str | None:
    if name["kind"] == "data":
        if SINGLE_PROCESS_LOADER in name["name"]:
            return (
                "Batches are loaded in the training process, between steps: "
                "`DataLoader(..., num_workers=N, pin_memory=True)` loads them in worker "
                "processes while the step runs"
            )
        return (
            "The loop waits for the DataLoader's workers: more workers (`num_workers`) or "
            "a deeper `prefetch_factor` keep batches ready"
        )
    return ADVICE.get(name["kind"])


def _named(run: Data, name: Data) -> str:
    said = (
        f"{name.get('label') or name['name']}: {time_us(name['per_step_us'])} per profiled "
        f"step ({share(name['per_step_us'] / run['per_step_us'])})"
    )
    if name.get("unprofiled_us") is not None:
        said += f", {time_us(name['unprofiled_us'])} per step without the profiler"
    return said


def _optimizer_share(run: Data, name: Data) -> float:
    """An optimizer step's share of a step: of the step as the program runs it where both
    were timed without the profiler (torch's optimizer step hooks and the step markers),
    else of the profiled step (the profiler's per-op records inflate eager ops more than
    compiled code, so its share is the less faithful one)."""
    plain = (run.get("unprofiled") or {}).get("per_step_us")
    if plain and name.get("unprofiled_us") is not None:
        return name["unprofiled_us"] / plain
    return name["per_step_us"] / run["per_step_us"]


def _optimizer(run: Data) -> list[Data]:
    found = []
    for gap in run.get("gaps") or []:
        for name in gap.get("names") or []:
            if name["kind"] != "optimizer_step":
                continue
            part = _optimizer_share(run, name)
            if part < GAP_SHARE:
                continue
            which = name["name"].partition("#")[2] or name["name"]
            found.append(
                finding(
                    "eager_optimizer",
                    "warning",
                    f"The eager optimizer step {which} takes {share(part)} of each step",
                    advice=COMPILE_OPTIMIZER + ".",
                    fix=fixes.code_change("compiling the optimizer step is a change to the code"),
                    details=[_named(run, name)],
                    evidence=[tab_link("run", "the run's steps")],
                )
            )
    return found


def find(data: Data) -> list[Data]:
    """A finding per eager gap over GAP_SHARE of the step (not a graph break's), naming what
    ran there; one per eager optimizer step over that share."""
    profile = data.get("profile")
    run = profile.get("run") if isinstance(profile, dict) else None
    if not isinstance(run, dict) or not run.get("per_step_us"):
        return []
    found = _optimizer(run)
    for gap in run.get("gaps") or []:
        part = gap["per_step_us"] / run["per_step_us"]
        names = [n for n in gap.get("names") or [] if n["kind"] != "python"]
        if gap["kind"] == "graph_break" or part < GAP_SHARE or not names:
            continue
        advice = next((a for a in (_advice(n) for n in names[:NAMES_SAID]) if a), None)
        found.append(
            finding(
                "eager_time",
                "info",
                f"{share(part)} of {each_step(run)} runs eagerly {gap['label']}: "
                + ", ".join(n.get("label") or n["name"] for n in names[:NAMES_SAID]),
                advice=advice + "." if advice else None,
                details=[_named(run, n) for n in gap.get("names") or []],
                evidence=[tab_link("run", "the run's steps")],
            )
        )
    return found
