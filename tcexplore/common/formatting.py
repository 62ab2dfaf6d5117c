"""Numbers and words as the views write them: three significant digits, durations, bytes,
rates, shares, axis ticks, plurals. The one place Python spells them: the decisions
(findings/, whose verdicts are sentences with figures) and the HTML report (render/) use
these, and the extension's model/format.ts spells them alike; both are pinned to
tests/fixtures/formatting/expected.json (input -> text). No torch import.

The rule a reader meets everywhere: three significant digits with their trailing zeros
("1.50 ms", "0.930"), never an exponent ("1230", "4.56 G" for 4.56e9), a unit chosen after
rounding (999.96 µs is "1.00 ms", not "1000 µs"), halves rounded away from zero (as
JavaScript's toFixed rounds), and "—" for a value that is not a finite number.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

NONE = "—"
_DURATION = ((1e-3, "µs"), (1.0, "ms"), (1e3, "s"))  # in milliseconds
_BYTES = ((1e3, "kB"), (1e6, "MB"), (1e9, "GB"))
_LARGE = ((1e6, "M"), (1e9, "G"), (1e12, "T"), (1e15, "P"))


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _fixed(value: float, decimals: int) -> str:
    """``value`` with ``decimals`` decimals, halves away from zero (JavaScript's toFixed)."""
    exact = Decimal(value).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    return format(exact, "f")


def sig3(value: float) -> str:
    """Three significant digits, trailing zeros kept, no exponent: 1235, 13.8, 0.930,
    0.0000123; 0 is "0"."""
    if value == 0:
        return "0"
    decimals = max(0, 2 - math.floor(math.log10(abs(value))))
    text = _fixed(value, decimals)
    if decimals and abs(float(text)) >= 10 ** (3 - decimals):  # 9.996 rounds up to 10.00
        text = _fixed(value, decimals - 1)
    return text


def _scaled(value: float, units: tuple[tuple[float, str], ...]) -> str:
    """``value`` in the first of ``units`` (each 1000 of the one before) where it stays
    under 1000 once rounded to three digits."""
    size, unit = units[0]
    for bigger, name in units[1:]:
        if abs(float(sig3(value / size))) < 1000:
            break
        size, unit = bigger, name
    return f"{sig3(value / size)} {unit}"


def fmt_duration(value_ms: Any) -> str:
    """A duration given in milliseconds, in µs, ms or s: "13.8 µs", "10.2 ms", "1.75 s"."""
    return _scaled(value_ms, _DURATION) if _finite(value_ms) else NONE


def time_us(value: Any) -> str:
    """A duration given in microseconds, as :func:`fmt_duration` writes it."""
    return fmt_duration(value / 1e3) if _finite(value) else NONE


def format_bytes(value: Any) -> str:
    """A size in bytes: "512 B", "1.50 kB", "16.8 MB", "2.00 GB" (powers of 1000)."""
    if not _finite(value):
        return NONE
    text = _fixed(value, 0)
    return f"{text} B" if abs(float(text)) < 1000 else _scaled(value, _BYTES)


def fmt_num(value: Any) -> str:
    """A plain number: three significant digits; from a million on, with M, G, T or P."""
    if not _finite(value):
        return NONE
    text = sig3(value)
    return text if abs(float(text)) < 1e6 else _scaled(value, _LARGE)


def count(value: Any) -> str:
    """A count (launches, FLOPs): a whole one in all its digits ("3", "4096"), from a million
    on as :func:`fmt_num` writes it; an average that is not whole, in three digits."""
    if _finite(value) and float(value).is_integer() and abs(value) < 1e6:
        return str(int(value))
    return fmt_num(value)


def rate(value: Any, unit: str) -> str:
    """A number and its unit ("3350 GB/s"), or "—"."""
    return f"{fmt_num(value)} {unit}" if _finite(value) else NONE


def share(value: Any) -> str:
    """A fraction as a percentage with one decimal: 0.4567 -> "45.7%"."""
    return f"{_fixed(value * 100, 1)}%" if _finite(value) else NONE


def tick(value: float) -> str:
    """An axis tick: up to six significant digits, no trailing zeros, no exponent."""
    exact = Decimal(f"{value:.6g}")
    text = format(exact, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def plural(count: int, word: str) -> str:
    """ "1 frame", "2 frames"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
