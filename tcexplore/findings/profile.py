"""Where the time goes (the profile's step verdict and its first advice)."""

from __future__ import annotations

from typing import Any

from .make import finding, tab_link


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    step = (data.get("profile") or {}).get("step") if isinstance(data.get("profile"), dict) else None
    if not isinstance(step, dict) or not step.get("verdict"):
        return []
    advice = step.get("advice") or []
    return [finding("profile", "info", f"Where the time goes: {step['verdict']}",
                    advice=advice[0] if advice else None, details=list(advice[1:]),
                    evidence=[tab_link("profile", "Where the time goes")])]
