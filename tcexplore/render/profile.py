"""The "Where the time goes" section: the step's verdict with its figures and advice, the
heaviest source lines, every kernel against the machine's roofs (a table and a log-log
roofline chart drawn as inline SVG, each point linked to its kernel in the report)."""

from __future__ import annotations

import math
from collections.abc import Callable

from ..common.formatting import count, fmt_num, format_bytes, rate, share, tick, time_us
from .markup import Data, _c, _compile_anchor, _details, _e, _location_with_code, _note, _table
from .run_view import run_view

TOP_LINES = 15
PROFILE_ANCHOR = "tcx-profile"
CHART = {"width": 560, "height": 300, "left": 56, "bottom": 36, "top": 10, "right": 16}
BOUND_COLOURS = {"memory": "#0969da", "compute": "#cf222e", "latency": "#9a6700", None: "#656d76"}


def _kernel_anchor(data: Data, row: Data) -> str | None:
    """The report's element id of a profiled kernel's source, when it is one of ours."""
    if row.get("compile") is None:
        return None
    compile_ = data["compiles"][row["compile"]]
    kernels = compile_["output_codes"][row["output"]]["kernels"]
    index = (
        row["kernel"]
        if "kernel" in row
        else next((i for i, k in enumerate(kernels) if k["name"] == row["name"]), None)
    )
    if not isinstance(index, int) or not 0 <= index < len(kernels):
        return None
    return f"{_compile_anchor(compile_.get('id'))}-output-{row['output']}-kernel-{index}"


def _kernel_name(data: Data, row: Data) -> str:
    anchor = _kernel_anchor(data, row)
    name = _c(row.get("label") or row.get("name"))
    return f'<a href="#{_e(anchor)}">{name}</a>' if anchor else name


def _verdict(profile: Data) -> str:
    step = profile["step"]
    scope = "over the run" if profile.get("scope") == "run" else "per call"
    figures = [
        [
            "wall time " + scope,
            _e(time_us(step["wall_us"])) + f' <span class="tcx-muted">'
            f"({_e(step.get('wall_source', ''))})</span>",
        ],
        ["in kernels", _e(f"{time_us(step['kernel_us'])} ({share(1 - step['overhead_share'])})")],
        [
            "outside kernels (Python, guards, launches, idle)",
            _e(f"{time_us(step.get('overhead_us'))} ({share(step['overhead_share'])})"),
        ],
    ]
    if isinstance(profile.get("calls"), dict) and profile["calls"].get("line"):
        figures.append(["calls of compiled code", _e(profile["calls"]["line"])])
    if step.get("timing_wall_us"):
        figures.append(
            [
                "the timing samples' median",
                _e(f"{time_us(step['timing_wall_us'])} (without the profiler)"),
            ]
        )
    basis = step.get("basis") or {}
    if basis.get("synced_us") is not None:
        figures.append(
            ["one call, then a sync (latency, not a loop's cost)", _e(time_us(basis["synced_us"]))]
        )
    if basis.get("line"):
        figures.insert(0, ["decided by", _e(basis["line"])])
    for bound, us in sorted((step.get("bound_us") or {}).items(), key=lambda item: -item[1]):
        if us:
            figures.append([f"in {bound}-bound kernels", _e(time_us(us))])
    advice = "".join(f"<li>{_e(a)}</li>" for a in step.get("advice", []))
    caveat = _note(step["unreliable"]) if step.get("unreliable") else ""
    return (
        f'<p class="tcx-findings">Verdict: {_e(step["verdict"])}</p>'
        + caveat
        + _table(["", ""], figures, "tcx-step")
        + f"<ul>{advice}</ul>"
    )


def _lines(data: Data, profile: Data) -> str:
    rows = []
    for line in profile.get("lines", [])[:TOP_LINES]:
        where = (
            _location_with_code(line)
            if line.get("file")
            else '<span class="tcx-muted">no source line (nodes torch recorded no stack for)</span>'
        )
        rows.append(
            [
                where,
                _e(time_us(line["time_us"])),
                _e(share(line.get("share"))),
                ", ".join(_c(k) for k in line.get("kernels", [])[:4]),
            ]
        )
    hidden = len(profile.get("lines", [])) - TOP_LINES
    note = _note(f"… {hidden} more lines not shown (truncated)") if hidden > 0 else ""
    return _table(["source line", "time", "share", "kernels"], rows, "tcx-time-lines") + note


def _launch_rows(row: Data) -> list[list[str]]:
    """A kernel launched from several lines of its output code: each launch's own figures
    under its total (an extern call made several times is a row per call already)."""
    sites = row.get("launch_sites") or []
    if len(sites) < 2:
        return []
    where = '<span class="tcx-muted">↳ launch at line {} of the output code</span>'
    return [
        [
            where.format(_e(s.get("line") or "?")),
            "",
            _e(time_us(s["time_us"])),
            _e(share(s.get("share"))),
            _e(count(s["calls"])),
        ]
        + [""] * 8
        for s in sites
    ]


def _kernels(data: Data, profile: Data) -> str:
    rows = []
    for r in profile.get("kernels", []):
        rows.append(
            [
                _kernel_name(data, r),
                _e(r.get("kind")),
                _e(time_us(r["time_us"])),
                _e(share(r.get("share"))),
                _e(count(r.get("calls"))),
                _e(time_us(r.get("mean_us"))),
                _e(format_bytes(r.get("bytes"))),
                _e(count(r.get("flops"))),
                _e(rate(r.get("achieved_gbps"), "GB/s")),
                _e(rate(r.get("achieved_gflops"), "GFLOP/s")),
                _e(share(r.get("efficiency"))),
                _e(r.get("bound") or "—"),
                _e((r.get("below_roof") or {}).get("text") or "—"),
            ]
        )
        rows += _launch_rows(r)
    return _table(
        [
            "kernel",
            "kind",
            "time",
            "share",
            "launches",
            "per launch",
            "bytes / launch",
            "FLOPs / launch",
            "bandwidth",
            "compute",
            "of the roof",
            "bound",
            "why below the roof",
        ],
        rows,
        "tcx-time-kernels",
    )


def _log_scale(values: list[float], lo_px: float, hi_px: float):
    lo, hi = math.log10(min(values)), math.log10(max(values))
    lo, hi = math.floor(lo), math.ceil(hi if hi > lo else lo + 1)

    def place(v: float) -> float:
        return lo_px + (math.log10(v) - lo) / (hi - lo) * (hi_px - lo_px)

    return place, range(lo, hi + 1)


def _chart_open() -> str:
    """The chart's ``<svg>`` element, opened."""
    c = CHART
    return (
        f'<svg class="tcx-roofline" width="{c["width"]}" height="{c["height"]}" '
        f'viewBox="0 0 {c["width"]} {c["height"]}" role="img" '
        'aria-label="roofline: achieved GFLOP/s against FLOPs per byte">'
    )


def _axes(
    x_of: Callable[[float], float], x_ticks: range, y_of: Callable[[float], float], y_ticks: range
) -> list[str]:
    """The grid lines with their tick labels (powers of ten), and the axes' titles."""
    c = CHART
    parts = []
    for t in x_ticks:
        x = x_of(10**t)
        parts.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{c["top"]}" y2="{c["height"] - c["bottom"]}" stroke="#eaeef2"/>'
            f'<text x="{x:.1f}" y="{c["height"] - c["bottom"] + 14}" font-size="11" '
            f'text-anchor="middle">{tick(10.0**t)}</text>'
        )
    for t in y_ticks:
        y = y_of(10**t)
        parts.append(
            f'<line x1="{c["left"]}" x2="{c["width"] - c["right"]}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eaeef2"/>'
            f'<text x="{c["left"] - 4}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{tick(10.0**t)}</text>'
        )
    parts.append(
        f'<text x="{(c["left"] + c["width"]) / 2}" y="{c["height"] - 4}" font-size="12" '
        'text-anchor="middle">arithmetic intensity (FLOPs per byte moved)</text>'
        f'<text x="12" y="{(c["top"] + c["height"] - c["bottom"]) / 2}" font-size="12" '
        f'text-anchor="middle" transform="rotate(-90 12 {(c["top"] + c["height"] - c["bottom"]) / 2})">'
        "achieved GFLOP/s</text>"
    )
    return parts


def _roofs(
    x_of: Callable[[float], float],
    x_ticks: range,
    y_of: Callable[[float], float],
    bandwidth: float,
    peak: float | None,
    ridge: float | None,
) -> list[str]:
    """The memory roof up to the ridge (the chart's right end without a compute peak), and
    the compute roof from the ridge on."""
    lo_x, hi_x = 10 ** x_ticks[0], 10 ** x_ticks[-1]
    roof_end = ridge if ridge else hi_x
    parts = [
        f'<line x1="{x_of(lo_x):.1f}" y1="{y_of(lo_x * bandwidth):.1f}" x2="{x_of(roof_end):.1f}" '
        f'y2="{y_of(roof_end * bandwidth):.1f}" stroke="#1f2328" stroke-width="1.5">'
        f"<title>{_e('memory roof: ' + rate(bandwidth, 'GB/s'))}</title></line>"
    ]
    if peak:
        parts.append(
            f'<line x1="{x_of(ridge):.1f}" y1="{y_of(peak):.1f}" x2="{x_of(hi_x):.1f}" y2="{y_of(peak):.1f}" '
            f'stroke="#1f2328" stroke-width="1.5"><title>{_e("compute roof: " + rate(peak, "GFLOP/s"))}</title></line>'
        )
    return parts


def _points(
    data: Data,
    points: list[Data],
    intensities: list[float],
    x_of: Callable[[float], float],
    y_of: Callable[[float], float],
) -> list[str]:
    """A circle per kernel, coloured by its bound, titled with its figures and linked to
    its source when the report has it."""
    parts = []
    for row, intensity in zip(points, intensities):
        colour = BOUND_COLOURS.get(row.get("bound"), BOUND_COLOURS[None])
        title = (
            f"{row.get('label') or row['name']}: {fmt_num(intensity)} FLOPs/byte, "
            f"{rate(row['achieved_gflops'], 'GFLOP/s')}, {rate(row.get('achieved_gbps') or 0, 'GB/s')}, "
            f"{time_us(row['time_us'])}, {row.get('bound')}-bound"
        )
        circle = (
            f'<circle cx="{x_of(intensity):.1f}" cy="{y_of(row["achieved_gflops"]):.1f}" r="5" '
            f'fill="{colour}" fill-opacity="0.8"><title>{_e(title)}</title></circle>'
        )
        anchor = _kernel_anchor(data, row)
        parts.append(f'<a href="#{_e(anchor)}">{circle}</a>' if anchor else circle)
    return parts


def _legend() -> str:
    """What the points' colours mean."""
    legend = " · ".join(
        f'<span style="color:{colour}">●</span> {_e(bound)}-bound'
        for bound, colour in BOUND_COLOURS.items()
        if bound
    )
    return f'<p class="tcx-muted">{legend}</p>'


def roofline_svg(data: Data, profile: Data) -> str:
    """Achieved GFLOP/s against arithmetic intensity (FLOPs per byte), both on log axes,
    under the measured roofs; one point per kernel with FLOPs, bytes and time."""
    peaks = profile["peaks"]
    points = [
        r
        for r in profile.get("kernels", [])
        if r.get("flops") and r.get("bytes") and r.get("achieved_gflops")
    ]
    if not points:
        return _note("No kernel has both FLOPs and bytes: nothing to place on the roofline.")
    c = CHART
    bandwidth = peaks["bandwidth_gbps"]
    peak = max((peaks.get("gflops") or {}).values(), default=None)
    intensities = [r["flops"] / r["bytes"] for r in points]
    ridge = peak / bandwidth if peak else None
    xs = intensities + ([ridge] if ridge else [])
    ys = [r["achieved_gflops"] for r in points] + ([peak] if peak else [])
    x_of, x_ticks = _log_scale(
        [v / 4 for v in xs] + [v * 4 for v in xs], c["left"], c["width"] - c["right"]
    )
    y_of, y_ticks = _log_scale(
        [v / 4 for v in ys] + [v * 2 for v in ys], c["height"] - c["bottom"], c["top"]
    )
    parts = [
        _chart_open(),
        *_axes(x_of, x_ticks, y_of, y_ticks),
        *_roofs(x_of, x_ticks, y_of, bandwidth, peak, ridge),
        *_points(data, points, intensities, x_of, y_of),
        "</svg>",
    ]
    return "".join(parts) + _legend()


def _peaks(profile: Data) -> str:
    peaks = profile["peaks"]
    compute = ", ".join(
        f"{dtype} {rate(value, 'GFLOP/s')}" for dtype, value in peaks["gflops"].items()
    )
    bandwidth = rate(peaks["bandwidth_gbps"], "GB/s")
    cost = f"{profile.get('cost_s', 0):.2f} s"
    return (
        f"<p>Roofs of {_e(peaks.get('device') or 'this machine')}: "
        f"{_e(bandwidth)}; {_e(compute)}.</p>"
        f'<p class="tcx-muted">{_e(peaks["how"])}. Profiled: {_e(profile["how"])}; '
        f"cost {_e(cost)}.</p>"
    )


def profile_section(data: Data) -> str:
    profile = data.get("profile")
    if not isinstance(profile, dict) or "step" not in profile:
        return ""
    run = profile.get("run")
    body = "\n".join(
        [
            _verdict(profile),
            run_view(data, run) if isinstance(run, dict) else "",
            _details("Source lines by time", _lines(data, profile), open_=True),
            _details(
                "Kernels against the roofline",
                _peaks(profile) + roofline_svg(data, profile) + _kernels(data, profile),
                open_=True,
            ),
        ]
    )
    return _details(
        "Where the time goes", body, cls="tcx-section tcx-profile", open_=True, id_=PROFILE_ANCHOR
    )
