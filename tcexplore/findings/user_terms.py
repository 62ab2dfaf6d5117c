"""Dynamo's source names and sympy expressions in the user's terms:
``L['x'].size()[0]`` -> ``x.size(0)``, ``s77 <= 100`` -> ``x.size(0) <= 100``."""

from __future__ import annotations

import re
from typing import Any

_SCOPE = re.compile(r"\b[LG]\['([^']+)'\]")
_MODULE_ITEM = re.compile(r"\._(?:modules|parameters|buffers)\['([^']+)'\]")
_CALL_INDEX = re.compile(r"\.(size|stride)\(\)\[(\d+)\]")
_STACK = re.compile(r"^___stack\d+")  # a resume function's argument: a value live at the break
_SYMBOL = re.compile(r"\b[su]\d+\b")
# The functions Dynamo generates: a frame resumed after a graph break (its code object's
# name, nested once per break), the global holding a resume function, a compiled graph.
_RESUMED = re.compile(r"torch_dynamo_resume_in_(?P<fn>.+)_at_(?P<line>\d+)")
GENERATED = re.compile(r"torch_dynamo_resume_in_[\w<>]+|__resume_at_\w+|__compiled_fn_\w+")
_SCALAR_GUARD = re.compile(r"^(?P<source>.+?)\s*==\s*(?P<value>-?[\d.e+-]+|True|False)$")


def source_name(source: Any) -> str:
    """A Dynamo source as the user would write it."""
    text = str(source or "")
    text = _SCOPE.sub(r"\1", text)
    text = _MODULE_ITEM.sub(r".\1", text)
    text = _CALL_INDEX.sub(r".\1(\2)", text)
    return _STACK.sub(lambda m: f"the value carried over the graph break ({m.group(0)})", text)


def symbol_names(compile_record: dict[str, Any]) -> dict[str, str]:
    """symbol -> its user name, from a compile's ``symbols`` (create_symbol's sources)."""
    names = {}
    for sym in compile_record.get("symbols") or []:
        if sym.get("symbol") and sym.get("source"):
            names.setdefault(str(sym["symbol"]), source_name(sym["source"]))
    return names


_SYMPY_CALLS = (
    (re.compile(r"\bMod\(([^(),]+), ([^(),]+)\)"), r"\1 % \2"),
    (re.compile(r"\bEq\(([^(),]+), ([^(),]+)\)"), r"\1 == \2"),
    (re.compile(r"\bNe\(([^(),]+), ([^(),]+)\)"), r"\1 != \2"),
)


def expression(expr: Any, names: dict[str, str]) -> str:
    """torch's guard expression with each symbol replaced by what it stands for, and
    sympy's Mod/Eq/Ne of plain operands written as Python's % == !=."""
    text = str(expr or "")
    for pattern, python in _SYMPY_CALLS:
        text = pattern.sub(python, text)
    return _SYMBOL.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def value_range(vr: Any) -> str:
    """``[2, int_oo]`` -> ``[2, ∞)``."""
    text = str(vr or "").replace(" ", "")
    match = re.fullmatch(r"\[(-?\w+),(-?\w+)\]", text)
    if not match:
        return str(vr or "?")
    lo, hi = (("−∞" if v.startswith("-") else "∞") if "oo" in v else v for v in match.groups())
    return f"{'(' if lo == '−∞' else '['}{lo}, {hi}{')' if hi == '∞' else ']'}"


def scalar_guard(guard: Any) -> tuple[str, str] | None:
    """A guard on a Python scalar's value (``L['lr'] == 0.1``): (user name, value)."""
    match = _SCALAR_GUARD.match(str(guard or "").strip())
    if not match or ".size()" in match["source"] or ".stride()" in match["source"]:
        return None
    return source_name(match["source"]), match["value"]


def user_function(name: Any) -> str:
    """The user's function a name stands for: a resume function Dynamo made after a
    graph break (``torch_dynamo_resume_in_forward_at_16``) is ``forward``'s code."""
    text = str(name or "")
    while match := _RESUMED.fullmatch(text):
        text = match["fn"]
    return text


def in_user_words(text: Any) -> Any:
    """``text`` with every function Dynamo generated named as the user knows it: a resume
    function as its function, after the graph break's line; a compiled graph's or a resume
    function's global as what it is. Anything but a str is returned as it is."""
    if not isinstance(text, str) or not GENERATED.search(text):
        return text

    def named(match: re.Match[str]) -> str:
        word = match.group(0)
        resumed = _RESUMED.fullmatch(word)
        if resumed:
            return f"{user_function(word)} (after its graph break at line {resumed['line']})"
        return "a resume function" if word.startswith("__resume_at_") else "a compiled graph"

    return GENERATED.sub(named, text)
