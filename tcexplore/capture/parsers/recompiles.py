"""Recompile reasons: ``recompile_reasons`` is a string or a JSON list of strings.

Each reason starts with ``<earlier compile id>: <the guard that failed>``, optionally
followed by ``  # user code  # file:line in fn`` and by lines of detail (torch adds a
``User stack trace:`` block for some guards).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .guards import split_guard_comments

_REASON = re.compile(r"^(?P<cid>!?[\d/_]+): (?P<reason>.*)$")
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
    reasons: list[dict[str, Any]] = []
    for item in items:
        for line in str(item).splitlines():
            m = _REASON.match(line.strip())
            if m or not reasons:
                cid, text = (m["cid"], m["reason"]) if m else (None, line.strip())
                guard, code, location = split_guard_comments(text)
                found = _EXPECTED.search(guard)
                reasons.append(
                    {
                        "failed_compile_id": cid,
                        "guard": guard,
                        "user_code": code,
                        "user_location": location,
                        "expected": found["expected"] if found else None,
                        "actual": found["actual"] if found else None,
                        "details": [],
                    }
                )
            elif line.strip():
                reasons[-1]["details"].append(line.rstrip())
    return reasons
