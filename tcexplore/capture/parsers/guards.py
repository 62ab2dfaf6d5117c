"""Structured guards from ``dynamo_cpp_guards_str``, the guard-manager tree torch prints.

Each leaf reads ``+- TENSOR_MATCH: check_tensor(L['x'], ...)  # y = x.sin()  # file:12 in f``;
it guards the value named by the closest enclosing ``GuardManager: source=...``.
"""

from __future__ import annotations

import re
from typing import Any

_MANAGER = re.compile(
    r"^(?P<indent>[| ]*)\+- (?:\w*GuardManager): source=(?P<source>.*?)(?:, accessed_by=|, type=|$)"
)
_LEAF = re.compile(r"^(?P<indent>[| ]*)\+- (?P<type>[A-Z][A-Z0-9_]+): (?P<rest>.*)$")
_LOCATION = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?: in (?P<fn>.+))?$")


def _depth(indent: str) -> int:
    return indent.count("|")


def split_guard_comments(rest: str) -> tuple[str, str | None, dict[str, Any] | None]:
    """``expr  # code  # file:line in fn`` -> expression, user code, location."""
    parts = [p.strip() for p in re.split(r"\s{2,}# ", rest)]
    expr = parts[0]
    code = location = None
    if len(parts) >= 3:
        code, loc = parts[1], parts[-1]
    elif len(parts) == 2:
        loc = parts[1]
    else:
        loc = None
    if loc:
        m = _LOCATION.match(loc)
        if m:
            location = {"file": m["file"], "line": int(m["line"]), "function": m["fn"]}
        elif code is None:
            code = loc
    return expr, code, location


def parse_guards(text: str) -> list[dict[str, Any]]:
    guards = []
    sources: dict[int, str] = {}
    for line in text.splitlines():
        m = _MANAGER.match(line)
        if m:
            depth = _depth(m["indent"])
            sources = {d: s for d, s in sources.items() if d < depth}
            sources[depth] = m["source"]
            continue
        m = _LEAF.match(line)
        if not m:
            continue
        depth = _depth(m["indent"])
        expr, code, location = split_guard_comments(m["rest"])
        owner = max((d for d in sources if d < depth), default=None)
        guards.append(
            {
                "type": m["type"],
                "source": sources[owner] if owner is not None else None,
                "expression": expr,
                "user_code": code,
                "user_location": location,
            }
        )
    return guards
