"""Numbers as the views write them: three significant digits, durations, microseconds,
shares. Both the decisions (findings/, whose verdicts are sentences with figures) and the
HTML report (render/) use these; the extension spells them alike (model/axis.ts,
model/format.ts). No torch import."""

from __future__ import annotations

import math
from typing import Any


def sig3(value: float) -> str:
    """Three significant digits, no exponent: 581, 13.8, 0.930 (model/axis.ts ``sig3``)."""
    if abs(value) >= 100:
        return f"{value:.0f}"
    return f"{value:.1f}" if abs(value) >= 10 else f"{value:#.3g}"


def fmt_duration(value_ms: float | None) -> str:
    """A duration given in milliseconds, in µs, ms or s (model/axis.ts ``duration``)."""
    if not isinstance(value_ms, (int, float)) or not math.isfinite(value_ms):
        return "—"
    if value_ms < 1:
        return f"{sig3(value_ms * 1000)} µs"
    return f"{sig3(value_ms)} ms" if value_ms < 1000 else f"{sig3(value_ms / 1000)} s"


def fmt_num(value: float | None) -> str:
    """Three significant digits, trailing zeros kept (model/format.ts ``num``)."""
    return f"{value:#.3g}" if isinstance(value, (int, float)) and math.isfinite(value) else "—"


def time_us(value: Any) -> str:
    """A time given in microseconds, in µs, ms or s."""
    if not isinstance(value, (int, float)):
        return "—"
    if value >= 1e6:
        return f"{value / 1e6:.3g} s"
    if value >= 1e3:
        return f"{value / 1e3:.3g} ms"
    return f"{value:.3g} µs"


def share(value: Any) -> str:
    """A fraction as a percentage with one decimal."""
    return f"{value:.1%}" if isinstance(value, (int, float)) else "—"
