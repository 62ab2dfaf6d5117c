"""An event's payload as the document keeps it: text bounded to MAX_TEXT, or parsed JSON."""

from __future__ import annotations

import json
from typing import Any

MAX_TEXT = 2_000_000  # characters kept of any one graph/code text; the rest is marked truncated


def bounded_text(payload: str | None) -> dict[str, Any]:
    payload = payload or ""
    if len(payload) <= MAX_TEXT:
        return {"text": payload, "truncated": False, "chars": len(payload)}
    return {"text": payload[:MAX_TEXT], "truncated": True, "chars": len(payload)}


def json_or_none(payload: str | None) -> Any:
    try:
        return json.loads(payload) if payload else None
    except ValueError:
        return None
