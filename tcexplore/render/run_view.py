"""The run view in the report: the headline, one steady step drawn as a timeline (compiled
code as bars labelled by compile id and frame, eager gaps by the break that made them), the
compiled frames by time and the eager gaps, each linked to its compile, its break and its
line. Draws ``profile.run`` as stored (measure/run_view.py, findings/run_view.py)."""

from __future__ import annotations

from ..common.formatting import count, share, time_us
from .bars import CHAR
from .graph_breaks import event_anchors
from .markup import Data, _c, _compile_anchor, _compile_link, _details, _e, _location, _table

WIDTH, LEFT, RIGHT, LANE = 760, 8, 16, 30
COLOURS = {
    "compiled": "#0969da",
    "backward": "#54aeff",
    "graph_break": "#bc4c00",
    "eager": "#8c959f",
}
STEPS_ANCHOR = "tcx-steps"
SLOWDOWN_BOX = "border-left: 4px solid #d4a72c; background: #fff8c5; padding: 2px 8px"


def _span_colour(run: Data, span: Data) -> str:
    if span.get("frame") is not None:
        return COLOURS["backward" if run["frames"][span["frame"]]["backward"] else "compiled"]
    gap = run["gaps"][span["gap"]] if span.get("gap") is not None else {}
    return COLOURS["graph_break"] if gap.get("kind") == "graph_break" else COLOURS["eager"]


def _span_href(run: Data, span: Data, breaks: dict[int, str]) -> str | None:
    if span.get("frame") is not None:
        return _compile_anchor(run["frames"][span["frame"]]["compile_id"])
    gap = run["gaps"][span["gap"]] if span.get("gap") is not None else {}
    return breaks.get(gap.get("break")) if gap.get("kind") == "graph_break" else None


def timeline_svg(run: Data, breaks: dict[int, str]) -> str:
    """One steady step to scale: a bar per stretch of compiled or eager code, its label
    inside where it fits (always in its tooltip), an axis in the step's time below."""
    timeline = run["timeline"]
    duration = timeline["duration_us"] or 1.0
    # the stored axis ends at the step's end (common/axis.py); one saved before it, only there
    axis = timeline.get("axis") or {
        "title": "time from the step's start",
        "ticks": [{"at_us": duration, "label": time_us(duration)}],
    }
    plot = WIDTH - LEFT - RIGHT

    def x(us: float) -> float:
        return round(LEFT + min(max(us / duration, 0.0), 1.0) * plot, 2)

    aria = f"step {timeline['step']}, drawn to scale"
    parts = [
        f'<svg class="tcx-run-timeline" role="img" width="{WIDTH}" height="{LANE + 46}" '
        f'viewBox="0 0 {WIDTH} {LANE + 46}" font-family="system-ui, sans-serif" '
        f'font-size="11" aria-label="{_e(aria)}">'
    ]
    for span in timeline["spans"]:
        left, right = x(span["start_us"]), x(span["end_us"])
        width = max(right - left, 1.0)
        title = f"{span['label']}: {time_us(span['end_us'] - span['start_us'])}"
        rect = (
            f'<rect x="{left}" y="4" width="{width:.2f}" height="{LANE}" '
            f'fill="{_span_colour(run, span)}" stroke="#fff" stroke-width="0.5">'
            f"<title>{_e(title)}</title></rect>"
        )
        room = int((width - 8) / CHAR)
        if room >= 3:  # the label, cut to the bar where it is longer
            label = span["label"]
            label = label if len(label) <= room else label[: room - 1] + "…"
            rect += (
                f'<text x="{left + 4}" y="{LANE / 2 + 8}" fill="#fff" '
                f'pointer-events="none">{_e(label)}</text>'
            )
        href = _span_href(run, span, breaks)
        parts.append(f'<a href="#{_e(href)}">{rect}</a>' if href else rect)
    for tick in axis["ticks"]:
        at = x(tick["at_us"])
        anchor = "end" if at > WIDTH - RIGHT - 20 else "middle"
        parts.append(
            f'<line x1="{at}" x2="{at}" y1="{LANE + 6}" y2="{LANE + 10}" stroke="#656d76"/>'
            f'<text x="{at}" y="{LANE + 22}" text-anchor="{anchor}" font-size="10" '
            f'fill="#656d76">{_e(tick["label"])}</text>'
        )
    parts.append(
        f'<text x="{LEFT + plot / 2}" y="{LANE + 40}" text-anchor="middle" '
        f'font-weight="600">{_e(axis["title"])}</text></svg>'
    )
    drawn = {_span_colour(run, span) for span in timeline["spans"]}
    legend = " · ".join(
        f'<span style="color:{colour}">■</span> {_e(what)}'
        for what, colour in (
            ("compiled code", COLOURS["compiled"]),
            ("compiled backward", COLOURS["backward"]),
            ("a graph break's eager code", COLOURS["graph_break"]),
            ("other eager code", COLOURS["eager"]),
        )
        if colour in drawn
    )
    left_out = timeline.get("spans_left_out") or 0
    more = f" · {left_out} more stretches not drawn (truncated)" if left_out else ""
    return "".join(parts) + f'<p class="tcx-muted">{legend}{_e(more)}</p>'


SPLIT = (
    ("dynamo_us", "Dynamo"),
    ("aot_us", "AOTAutograd"),
    ("wrapper_us", "wrapper"),
    ("launch_us", "launches"),
)


def _guards(row: Data) -> str:
    """Steady guard time per entry beside torch's cold figure from the compile."""
    if row.get("backward"):
        return "—"
    steady, cold = row.get("guard_us"), row.get("guard_latency_us")
    said = [f"{time_us(steady)} steady" if steady is not None else "", ""]
    said[1] = f"{time_us(cold)} cold (torch)" if cold is not None else ""
    return " · ".join(s for s in said if s) or "—"


def _split(row: Data) -> str:
    split = row.get("outside_split") or {}
    return (
        " · ".join(f"{what} {time_us(split[key])}" for key, what in SPLIT if split.get(key)) or "—"
    )


def _frames(run: Data, named: dict[str, str]) -> str:
    """The frames table; ``named``: Dynamo's resume functions in the user's words (stored
    ``resume_labels``), as the timeline and the extension name them."""
    rows = []
    for row in run["frames"]:
        hot = {True: "hot", False: "cold", None: "—"}[row.get("hot")]
        frame = named.get(row["frame"], row["frame"])
        rows.append(
            [
                _compile_link(row["compile_id"]),
                _location({"file": row["file"], "line": row["line"], "function": frame}),
                "backward" if row["backward"] else "forward",
                _e(count(row["entered"])),
                _e(count(row["per_step"])),
                _e(time_us(row["total_us"])),
                _e(share(row["total_us"] / run["per_step_us"] / max(run["steps"]["steady"], 1))),
                _e(time_us(row["mean_us"])),
                _e(time_us(row["kernel_us"])),
                _e(time_us(row["outside_us"])),
                _e(_guards(row)),
                _e(_split(row)),
                _e(hot),
            ]
        )
    return _table(
        [
            "compile",
            "frame",
            "pass",
            "entered",
            "per step",
            "time",
            "of the step",
            "per entry",
            "in kernels",
            "outside kernels",
            "guards per entry",
            "outside kernels, per entry",
            "entry",
        ],
        rows,
        "tcx-run-frames",
    )


def _names(run: Data, gap: Data) -> str:
    """What ran in the gap, each with its time per profiled step and share of the step
    (an optimizer step's unprofiled time beside it)."""
    said = []
    for name in gap.get("names") or []:
        text = f"{name['label']}: {time_us(name['per_step_us'])}"
        if run["per_step_us"]:
            text += f" ({share(name['per_step_us'] / run['per_step_us'])})"
        if name.get("unprofiled_us") is not None:
            text += f", {time_us(name['unprofiled_us'])} without the profiler"
        said.append(f"<li>{_e(text)}</li>")
    return f'<ul class="tcx-run-names">{"".join(said)}</ul>' if said else "—"


def _gaps(run: Data, breaks: dict[int, str]) -> str:
    rows = []
    for gap in run["gaps"]:
        anchor = breaks.get(gap["break"]) if gap["kind"] == "graph_break" else None
        label = _e(gap["label"])
        rows.append(
            [
                f'<a href="#{_e(anchor)}">{label}</a>' if anchor else label,
                _location({"file": gap["file"], "line": gap["line"]}) if gap["file"] else "—",
                _e(count(gap["count"])),
                _e(time_us(gap["per_step_us"])),
                _e(share(gap["per_step_us"] / run["per_step_us"]) if run["per_step_us"] else "—"),
                _e(time_us(gap["total_us"])),
                _names(run, gap),
            ]
        )
    return _table(
        ["eager code", "line", "gaps", "per step", "of the step", "in all", "what ran there"],
        rows,
        "tcx-run-gaps",
    )


def _figures(run: Data) -> str:
    steps = run["steps"]
    compiled = steps["compiled"]
    said = (
        f"{count(steps['count'])} steps ({steps['basis']}); figures over "
        f"{count(steps['steady'])} steady steps"
    )
    if compiled:
        shown = ", ".join(str(i) for i in compiled[:10]) + (" …" if len(compiled) > 10 else "")
        noun = "step" if len(compiled) == 1 else "steps"
        said += f"; left out, as torch compiled during them: {noun} {shown}"
    step = run.get("step_time") or {}
    rows = [
        ["steps", _e(said)],
        ["a step (mean)", _e(step.get("line") or time_us(run["per_step_us"]))],
        ["under the profiler", _e(time_us(run["per_step_us"]))],
        [
            "in compiled code (profiled)",
            _e(f"{time_us(run['compiled_us'])} ({share(run['compiled_share'])})"),
        ],
        [
            "eager (profiled)",
            _e(f"{time_us(run['eager_us'])} ({share(1 - run['compiled_share'])})"),
        ],
    ]
    return _table(["", ""], rows, "tcx-step")


def _slowdown(run: Data) -> str:
    note = (run.get("step_time") or {}).get("slowdown_note")
    return f'<p class="tcx-run-slowdown" style="{SLOWDOWN_BOX}">{_e(note)}</p>' if note else ""


def run_view(data: Data, run: Data) -> str:
    """The run view's block of the profile section."""
    breaks = event_anchors(data)
    body = "\n".join(
        [
            f'<p class="tcx-findings">{_e(run["headline"])}</p>',
            _slowdown(run),
            _figures(run),
            f"<p>Step {_c(run['timeline']['step'])} "
            f"({_e(time_us(run['timeline']['duration_us']))}), the median steady one:</p>",
            timeline_svg(run, breaks),
            _details(
                "Compiled frames by time",
                _frames(run, data.get("resume_labels") or {}),
                open_=True,
            ),
            _details("Eager gaps by cause", _gaps(run, breaks), open_=True),
            f'<p class="tcx-muted">{_e(run["how"])}.</p>',
        ]
    )
    return _details("Steps: compiled code and eager gaps", body, open_=True, id_=STEPS_ANCHOR)
