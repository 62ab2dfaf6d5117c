"""Structured guards from ``dynamo_cpp_guards_str``, the guard-manager tree torch prints.

Each leaf reads ``+- TENSOR_MATCH: check_tensor(L['x'], ...)  # y = x.sin()  # file:12 in f``;
it guards the value named by the closest enclosing ``GuardManager: source=...``. A shape
guard's location is torch's ``SLoc``: the user's line and, in parentheses, torch's own
(``file:5 in f (_dynamo/variables/tensor.py:2606 in evaluate_expr)``), only torch's
(``(_inductor/codegen/cpp.py:2273 in need_use_acc_helper)``: no user frame was being
traced), or a note (``... in forward (user code shown is first use of this value--...)``).
"""

from __future__ import annotations

import re
from typing import Any

_MANAGER = re.compile(
    r"^(?P<indent>[| ]*)\+- (?:\w*GuardManager): source=(?P<source>.*?)(?:, accessed_by=|, type=|$)"
)
_LEAF = re.compile(r"^(?P<indent>[| ]*)\+- (?P<type>[A-Z][A-Z0-9_]+): (?P<rest>.*)$")
_LOCATION = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?: in (?P<fn>[^ ]+))?(?: \((?P<more>.*)\))?$")
_TORCH_LINE = re.compile(r"\S+:\d+ in \S+")
# torch's words on a location that is the first use of a value, not the guard's cause
FIRST_USE = "user code shown is first use of this value"


def parse_location(text: str) -> dict[str, Any] | None:
    """``file:line in fn``; torch's own line after it in parentheses is left out (the
    user's line is the location), its note kept as ``note``; a location wholly in
    parentheses is torch's own line, with no user frame: ``torch_own`` says so."""
    own = text.startswith("(") and text.endswith(")")
    m = _LOCATION.match(text[1:-1] if own else text)
    if not m:
        return None
    location: dict[str, Any] = {"file": m["file"], "line": int(m["line"]), "function": m["fn"]}
    if own:
        location["torch_own"] = True
    elif m["more"] and not _TORCH_LINE.fullmatch(m["more"]):
        location["note"] = m["more"]
    return location


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
        location = parse_location(loc)
        if location is None and code is None:
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
