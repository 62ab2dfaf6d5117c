"""Eager vs compiled time: the Timing tab's verdict and when compile time pays back; a
busy machine makes it a warning, never an OK."""

from __future__ import annotations

from typing import Any

from ..render.measurements import timing_verdict
from .make import finding, tab_link


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    timing = data.get("timing")
    if not isinstance(timing, dict):
        return []
    verdict = timing_verdict(timing)
    even = timing.get("break_even_calls")
    payback = ("compile time never pays back" if even is None else
               f"compile time pays back after {-int(-even // 1)} calls")
    machine = timing.get("machine") if isinstance(timing.get("machine"), dict) else {}
    # timing_verdict already makes a busy machine a warning; kept here for older verdicts
    severity = "warning" if machine.get("busy") else verdict["severity"]
    headline = verdict["headline"]
    if (data.get("summary") or {}).get("graphs") == 0:
        severity, payback = "warning", "there is no compile to pay back"
        headline = ("Nothing was compiled: both sides ran eagerly, so this compares eager "
                    f"with eager ({headline})")
    details = [t for t in (verdict.get("busy"), verdict.get("noise")) if t]
    return [finding("timing", severity, f"{headline}; {payback}.", details=details,
                    advice=verdict.get("advice"), evidence=[tab_link("timing", "Timing")])]
