"""The run view's words: what started a step, each eager gap's and each timeline bar's
label, the timeline's axis (ending at the step's end), the headline (the share of a step in
compiled code and the costliest graph break), and the finding that names that break with
its measured cost. The figures are measure/run_view.py's; both views draw these stored
texts."""

from __future__ import annotations

from typing import Any

from ..common.axis import span_axis
from ..common.formatting import count, share, time_us
from .graph_break_audit import source_labels
from .make import compile_link, finding, short_where, source_link, tab_link
from .resume_labels import resume_labels

Data = dict[str, Any]

# What a profiler step is, where the profile calls a thunk (measure/profile.py's profile_calls).
STEP_BY = {
    "call": "each call of the explored function (one profiler step) is a step",
    "cell": "each run of the cell's body (one profiler step) is a step",
}
OUTSIDE = "outside any compiled frame"
BEFORE = "before the step's first compiled code (Dynamo's entry, guards)"
# A break whose eager code the profile measured, with no record in the document (its compile
# ran before a live capture opened, or torch wrote none).
UNRECORDED = "a graph break this document did not record"
# A compile id the profile saw run that the document lacks: a live capture opened after it.
BEFORE_CAPTURE = "compiled before this document's capture opened"
MESSAGE_CHARS = 60
STEP_AXIS = "time from the step's start"  # the timeline's axis, ending at the step's end
# A profiled step this much slower than the unprofiled one is said, with the ratio.
SLOWDOWN_SAID = 1.1
UNPROFILED_BY = {
    "markers": "the steps the profiler did not record, timed by host timers at each entry "
    "of the first compiled frame",
    "calls": "the same calls, each timed to completion, without the profiler or the kernel ranges",
}


def _break(data: Data, index: Any) -> Data:
    breaks = data.get("graph_breaks") or []
    return breaks[index] if isinstance(index, int) and 0 <= index < len(breaks) else {}


def _message(brk: Data) -> str:
    text = " ".join(str(brk.get("message") or "").split())
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"


def _steps_said(runs: list[list[int]]) -> str:
    said = [f"{a}–{b}" if b > a else str(a) for a, b in runs]
    return ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1]


def _basis(data: Data, first: str | None, step: str, run: Data) -> str:
    if first is None:
        return STEP_BY[step]
    record = next((c for c in data.get("compiles") or [] if c.get("id") == first), None)
    if record is None:
        which = f"compile {first}, {BEFORE_CAPTURE}"
    else:
        frame = record.get("frame") or {}
        at = short_where(frame.get("file"), frame.get("line"), source_labels(data))
        which = f"{frame.get('function') or first} at {at}"
    starts = f"each entry of the run's first compiled frame ({which}) starts a step"
    plain = run.get("unprofiled") or {}
    profiled = run["steps"].get("profiled") or []
    if plain.get("basis") != "markers" or not profiled:
        return (
            f"{starts}; the last step ends with its last compiled code, so it is left out of "
            "the figures"
        )
    windows = "a window" if len(plain.get("windows") or []) < 2 else "windows"
    return (
        f"{starts}; the profiler recorded steps {_steps_said(profiled)} whole ({windows} "
        f"from the run's start, and from each compile after one closed, each until "
        f"{plain.get('window_steps')} steady steps); the other steps ran without it"
    )


def gap_words(gap: Data, data: Data) -> tuple[str, str]:
    """A gap's label (its table row) and its short label (a timeline bar)."""
    if gap["kind"] == "between_steps":
        return OUTSIDE, "eager"
    if gap["kind"] == "before_first":
        return BEFORE, "entry"
    brk = _break(data, gap["break"])
    if not brk:
        return f"eager code of {UNRECORDED}", "break"
    at = short_where(brk.get("file"), brk.get("line"), source_labels(data))
    message = _message(brk)
    return f"graph break at {at}" + (f" ({message})" if message else ""), f"break at {at}"


def step_words(run: Data) -> Data:
    """The per-step figure every view shows (the unprofiled one where it was timed), the
    line that says how it was taken, and the profiler's slowdown where it is over
    :data:`SLOWDOWN_SAID`."""
    plain = run.get("unprofiled") or {}
    profiled = time_us(run["per_step_us"])
    if not plain.get("per_step_us"):
        return {
            "per_step_us": run["per_step_us"],
            "line": f"{profiled} per step, under the profiler: every steady step ran under "
            "it, none was timed without it",
            "slowdown_note": None,
        }
    ratio = plain.get("slowdown")
    how = UNPROFILED_BY.get(plain.get("basis"), "timed without the profiler")
    steps = count(plain.get("steps") or 0)
    line = f"{time_us(plain['per_step_us'])} per step without the profiler ({how}; {steps} steps)"
    marker = plain.get("marker_us")
    if marker is not None:
        calls = plain.get("graph_calls_per_step") or 1.0
        line += f"; the timers cost {time_us(marker * calls)} a step"
    note = None
    if ratio and ratio > SLOWDOWN_SAID:
        note = (
            f"profiling slowed each step {ratio:.2f}× ({time_us(plain['per_step_us'])} "
            f"without it, {profiled} under it): the times of the frames and gaps below are "
            "the profiled steps', their shares how a profiled step divides"
        )
    elif ratio:
        line += f"; under the profiler {profiled} ({ratio:.2f}×)"
    return {"per_step_us": plain["per_step_us"], "line": line, "slowdown_note": note}


def name_label(name: Data) -> str:
    """What ran in an eager gap, as the views name it (torch's range, and what it is)."""
    kind, said = name["kind"], name["name"]
    if kind == "optimizer_step":
        return f"{said.partition('#')[2] or said} (the optimizer's step, eager)"
    if kind == "zero_grad":
        return f"{said.partition('#')[2] or said} (zeroing the gradients)"
    if kind == "data":
        return f"{said.partition('#')[2] or said} (loading a batch)"
    if kind == "guards":
        return "Dynamo's cache lookup (the guards of a frame's entry)"
    return said


def shares_of_profiled_step(run: Data) -> bool:
    """Whether the shares of the frames and gaps are to be said of the profiled step: where
    profiling slowed it over :data:`SLOWDOWN_SAID`, since the shares are how a profiled step
    divides (the profiler inflates eager ops more than compiled code) and how the
    unprofiled step divides was not measured."""
    ratio = (run.get("unprofiled") or {}).get("slowdown")
    return bool(ratio and ratio > SLOWDOWN_SAID)


def each_step(run: Data) -> str:
    """The step a share is of, in words."""
    return "each profiled step" if shares_of_profiled_step(run) else "each step"


def headline(run: Data, data: Data) -> str:
    if not run["steps"]["steady"]:
        return "every step compiled: no steady step to measure"
    step = time_us(run["step_time"]["per_step_us"])
    compiled = share(run["compiled_share"])
    if shares_of_profiled_step(run):
        said = (
            f"{compiled} of each profiled step ({time_us(run['per_step_us'])}) runs compiled "
            f"code ({step} a step without the profiler)"
        )
    else:
        said = f"{compiled} of each step ({step}) runs compiled code"
    unseen = sum(1 for f in run["frames"] if f["compile"] is None)
    # what the document cannot name: the frames' names and breaks are in no record of it
    were = "was" if unseen == 1 else "were"
    note = f" ({count(unseen)} of the compiled frames that ran {were} {BEFORE_CAPTURE})"
    note = note if unseen else ""
    costliest = next((g for g in run["gaps"] if g["kind"] == "graph_break"), None)
    if costliest is not None:
        brk = _break(data, costliest["break"])
        cost = share(costliest["per_step_us"] / run["per_step_us"])
        if not brk:
            return f"{said}; {UNRECORDED} costs {cost} of it{note}"
        at = short_where(brk.get("file"), brk.get("line"), source_labels(data))
        return f"{said}; the graph break at {at} costs {cost} of it{note}"
    eager = share(1 - run["compiled_share"])
    return f"{said}; no graph break splits it ({eager} of it runs eagerly){note}"


def label_run(run: Data, data: Data, first: str | None, step: str = "call") -> Data:
    """``run`` with its words: ``first`` is the compile whose frame's entries start the
    steps (None: a step is a profiler step, one ``step`` of :data:`STEP_BY`)."""
    run["steps"]["basis"] = _basis(data, first, step, run)
    run["step_time"] = step_words(run)
    short = []
    for gap in run["gaps"]:
        brk = _break(data, gap["break"]) if gap["kind"] == "graph_break" else {}
        gap["file"] = brk.get("file")
        gap["line"] = brk.get("line") if isinstance(brk.get("line"), int) else None
        gap["label"], bar = gap_words(gap, data)
        for name in gap.get("names") or []:
            name["label"] = name_label(name)
        short.append(bar)
    named = resume_labels(data)  # Dynamo's resume functions in words
    for span in run["timeline"]["spans"]:
        if span["frame"] is not None:
            row = run["frames"][span["frame"]]
            frame = named.get(row["frame"], row["frame"])
            span["label"] = f"{row['compile_id']} {frame}" + (
                " (backward)" if row["backward"] else ""
            )
        else:
            span["label"] = short[span["gap"]] if span["gap"] is not None else "eager"
    run["timeline"]["axis"] = span_axis(run["timeline"]["duration_us"], STEP_AXIS)
    run["headline"] = headline(run, data)
    return run


def find(data: Data) -> list[Data]:
    """The costliest graph break of a profiled run, with what it costs each step."""
    profile = data.get("profile")
    run = profile.get("run") if isinstance(profile, dict) else None
    if not isinstance(run, dict) or not run.get("per_step_us"):
        return []
    gap = next((g for g in run.get("gaps") or [] if g.get("kind") == "graph_break"), None)
    if gap is None:
        return []
    brk = _break(data, gap.get("break"))
    at = short_where(brk.get("file"), brk.get("line"), source_labels(data)) if brk else ""
    links = [link for link in [source_link(brk, at)] if link] if brk else []
    links += [compile_link(brk["compile_id"])] if brk.get("compile_id") else []
    links.append(tab_link("profile", "Where the time goes"))
    part, per_step = share(gap["per_step_us"] / run["per_step_us"]), time_us(gap["per_step_us"])
    cost = (
        f"{part} of each profiled step ({per_step}), run eagerly"
        if shares_of_profiled_step(run)
        else f"{part} of each step, run eagerly ({per_step} of a profiled step)"
    )
    return [
        finding(
            "run_view",
            "info",
            f"{f'The graph break at {at}' if brk else UNRECORDED.capitalize()} costs {cost}",
            advice="Remove the break (its finding says how) to run this code compiled."
            if brk
            else "Open the capture before the compiled code's first call: the document then "
            "names this break and its line.",
            details=[run["headline"]],
            evidence=links,
        )
    ]
