"""Linear axes from 0 for bars drawn to scale: a round far end, round ticks and a title
with the unit (the HTML report's charts, render/bars.py, as the extension's
model/axis.ts). :func:`span_axis` is the axis a view stores whole: one that ends where
what it measures ends (a run's step, findings/run_view.py), so the views only draw it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .formatting import sig3, tick

_STEPS = (1, 2, 2.5, 5, 10)
# a round tick this close to a span's end (a share of it) gives way to the end's own
END_ROOM = 0.08


@dataclass
class Axis:
    max: float
    ticks: list[tuple[float, str]]
    title: str
    unit: str = ""
    factor: float = 1.0  # the axis's unit per value unit

    def fmt(self, value: float) -> str:
        """A value written in the axis's unit ("13.8 µs")."""
        return f"{sig3(value * self.factor)}{' ' + self.unit if self.unit else ''}"


def nice_step(extent: float, count: int = 5) -> float:
    """The smallest round step (1, 2, 2.5 or 5 × 10^k) giving at most ``count`` intervals."""
    raw = extent / count
    power = 10 ** math.floor(math.log10(raw))
    return next((s for s in _STEPS if s * power >= raw * (1 - 1e-9)), 10) * power


def linear_axis(extent: float, title: str, unit: str = "", count: int = 5) -> Axis:
    extent = extent if extent > 0 and math.isfinite(extent) else 1.0
    step = nice_step(extent, count)
    intervals = max(1, math.ceil(extent / step - 1e-9))
    return Axis(
        intervals * step, [(i * step, tick(i * step)) for i in range(intervals + 1)], title, unit
    )


def time_axis(extent_ms: float, what: str) -> Axis:
    """Values in milliseconds; ticks in µs, ms or s as the extent suits."""
    unit, factor = (
        ("s", 1e-3) if extent_ms >= 2000 else ("µs", 1e3) if extent_ms < 0.5 else ("ms", 1)
    )
    axis = linear_axis(extent_ms * factor, f"{what} ({unit})")
    return Axis(
        axis.max / factor, [(v / factor, text) for v, text in axis.ticks], axis.title, unit, factor
    )


def span_axis(extent_us: float, what: str) -> dict[str, Any]:
    """A time axis that ends at ``extent_us`` (not at a round value past it): the round
    ticks before it, less any within :data:`END_ROOM` of it, and the end, labelled with
    the extent in the axis's unit. Ticks: ``at_us`` from the start, and ``label``."""
    axis = time_axis(extent_us / 1e3, what)
    room = extent_us * (1 - END_ROOM)
    ticks = [
        {"at_us": round(value * 1e3, 6), "label": text}
        for value, text in axis.ticks
        if value * 1e3 <= room or value == 0
    ]
    if extent_us > 0:
        ticks.append({"at_us": extent_us, "label": axis.fmt(extent_us / 1e3)})
    return {"title": axis.title, "ticks": ticks}
