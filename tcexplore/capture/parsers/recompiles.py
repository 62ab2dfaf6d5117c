"""Recompile reasons: ``recompile_reasons`` is a string or a JSON list of strings,
each ``<earlier compile id>: <the guard that failed>``."""

from __future__ import annotations

import json
import re
from typing import Any

_REASON = re.compile(r"^(?P<cid>[!\d/_]+): (?P<reason>.*)$", re.S)
_EXPECTED = re.compile(r"expected (?P<expected>.+?), actual (?P<actual>.+?)\.?$")


def parse_recompile_reasons(payload: str | None) -> list[dict[str, Any]]:
    if not payload:
        return []
    try:
        items = json.loads(payload)
    except ValueError:
        items = [payload]
    if isinstance(items, str):
        items = [items]
    reasons = []
    for item in items:
        for text in str(item).splitlines() or [""]:
            m = _REASON.match(text.strip())
            cid, reason = (m["cid"], m["reason"]) if m else (None, text.strip())
            found = _EXPECTED.search(reason)
            reasons.append({
                "failed_compile_id": cid, "guard": reason,
                "expected": found["expected"] if found else None,
                "actual": found["actual"] if found else None,
            })
    return reasons
