"""The captured code raised."""

from __future__ import annotations

from typing import Any

from .make import finding


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    error = data.get("error")
    if not isinstance(error, dict):
        return []
    message = str(error.get("message") or "").strip().splitlines()
    first = f": {message[0]}" if message else ""
    return [
        finding(
            "error", "error", f"The captured code raised {error.get('type') or 'an error'}{first}"
        )
    ]
