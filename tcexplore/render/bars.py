"""Bars drawn to scale on a labelled axis from 0, as inline SVG (no script, no stylesheet).

The same charts as the JupyterLab extension's (extension/src/model/axis.ts, view/charts.ts):
round ticks with a unit (common/axis.py), medians as bars, IQR whiskers, a min–max line cut at the axis
end and an off-scale max marked past it. Colours are SVG attributes, so the chart keeps
them wherever the HTML goes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..common.axis import Axis
from .markup import _e

WIDTH = 640
RIGHT = 190
ROW = 34
CHAR = 6.2  # px per character of 11px text, near enough to keep labels apart
_INK, _MUTED, _GRID, _WARN, _FAIL = "#1f2328", "#656d76", "#d0d7de", "#9a6700", "#cf222e"
BAR_COLOURS = {"eager": "#9aa5b1", "compiled": "#0969da"}


@dataclass
class Bar:
    """One row; values in the axis's unit. ``value`` None: no bar (``text`` says why)."""

    label: str
    value: float | None
    text: str
    colour: str = "#0969da"
    sub: str = ""
    band: tuple[float, float] | None = None
    range: tuple[float, float] | None = None
    off_scale: str = ""  # said past the axis end when the range or band goes beyond it
    title: str = ""
    highlight: bool = False


def axis_chart(
    axis: Axis,
    bars: list[Bar],
    label: str,
    *,
    width: int = WIDTH,
    label_width: int = 90,
    reference: tuple[float, str] | None = None,
) -> str:
    """Horizontal bars to scale, the axis with its ticks, grid and title below."""
    plot = width - label_width - RIGHT

    def x(value: float) -> float:
        return round(label_width + max(0.0, min(value / axis.max, 1.0)) * plot, 2)

    bottom = 6 + len(bars) * ROW
    parts = [
        f'<svg class="tcx-axis-chart" role="img" aria-label="{_e(label)}" width="{width}" '
        f'height="{bottom + 40}" viewBox="0 0 {width} {bottom + 40}" '
        f'font-family="system-ui, sans-serif" font-size="11" fill="{_INK}">'
    ]
    for value, text in axis.ticks:
        at = x(value)
        parts.append(
            f'<line x1="{at}" x2="{at}" y1="2" y2="{bottom + 4}" '
            f'stroke="{_MUTED if value == 0 else _GRID}"/>'
            f'<text x="{at}" y="{bottom + 17}" text-anchor="middle" font-size="10" '
            f'fill="{_MUTED}">{_e(text)}</text>'
        )
    parts.append(
        f'<line x1="{label_width}" x2="{label_width + plot}" y1="{bottom + 4}" '
        f'y2="{bottom + 4}" stroke="{_MUTED}"/>'
        f'<text x="{label_width + plot / 2}" y="{bottom + 33}" text-anchor="middle" '
        f'font-weight="600">{_e(axis.title)}</text>'
    )
    if reference is not None and reference[0] <= axis.max:
        at = x(reference[0])
        parts.append(
            f'<line x1="{at}" x2="{at}" y1="2" y2="{bottom + 4}" stroke="{_INK}" '
            f'stroke-dasharray="4 3"/><text x="{at + 3}" y="{bottom - 2}" '
            f'font-size="10" fill="{_MUTED}">{_e(reference[1])}</text>'
        )
    for i, bar in enumerate(bars):
        parts.append(_row(bar, 6 + i * ROW, x, axis, label_width, plot))
    parts.append("</svg>")
    return "".join(parts)


def _row(
    bar: Bar, y: int, x: Callable[[float], float], axis: Axis, label_width: int, plot: int
) -> str:
    mid = y + 11
    room = int((label_width - 8) / CHAR)
    name = bar.label if len(bar.label) <= room else bar.label[: room - 1] + "…"
    weight = ' font-weight="700"' if bar.highlight else ""
    out = [
        f"<g><title>{_e(bar.title or bar.text)}</title>",
        f'<text x="0" y="{y + 9 if bar.sub else y + 15}"{weight}>{_e(name)}</text>',
    ]
    if bar.sub:
        out.append(f'<text x="0" y="{y + 22}" font-size="10" fill="{_MUTED}">{_e(bar.sub)}</text>')
    end = x(bar.value) if bar.value is not None else label_width
    if bar.band is not None:
        end = max(end, x(bar.band[1]))
    # an off-scale mark goes past the axis end, and past the value's text when that reaches it
    beyond = [r for r in (bar.range, bar.band) if r is not None and r[1] > axis.max]
    off_scale = bool(beyond) and bool(bar.off_scale)
    mark = round(max(label_width + plot, end + 9 + len(bar.text) * CHAR), 1)
    if bar.range is not None:
        cut = off_scale and bar.range[1] > axis.max
        out.append(
            f'<line x1="{x(bar.range[0])}" x2="{mark if cut else x(bar.range[1])}" '
            f'y1="{mid}" y2="{mid}" stroke="#8c959f"/>'
        )
    if bar.value is not None:
        outline = f' stroke="{_INK}" stroke-width="2"' if bar.highlight else ""
        out.append(
            f'<rect x="{label_width}" y="{y}" width="{max(x(bar.value) - label_width, 1):.2f}" '
            f'height="22" fill="{bar.colour}"{outline}/>'
        )
    if bar.band is not None:
        a, b = x(bar.band[0]), x(bar.band[1])
        cap = f" M {b} {mid - 6} V {mid + 6}" if bar.band[1] <= axis.max else ""  # none if cut
        out.append(
            f'<path d="M {a} {mid} H {b} M {a} {mid - 6} V {mid + 6}{cap}" '
            f'stroke="{_INK}" stroke-width="1.5" fill="none"/>'
        )
    colour = f' fill="{_FAIL}"' if bar.value is None else ""
    out.append(
        f'<text x="{end + 5}" y="{y + 15}"{colour} paint-order="stroke" stroke="#fff" '
        f'stroke-width="3" stroke-linejoin="round">{_e(bar.text)}</text>'
    )
    if off_scale:
        out.append(
            f'<path d="M {mark} {mid - 5} L {mark + 7} {mid} L {mark} {mid + 5} Z" '
            f'fill="{_WARN}"/><text x="{mark + 12}" y="{y + 15}" fill="{_WARN}">'
            f"{_e(bar.off_scale)}</text>"
        )
    out.append("</g>")
    return "".join(out)
