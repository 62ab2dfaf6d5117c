"""Inductor's output code -> the buffers its wrapper allocates, reuses and frees.

Read from the wrapper's own statements (``buf0 = empty_strided_cpu((4, 16), (16, 1),
torch.float32)``, ``buf3 = buf0; del buf0  # reuse``, ``buf4 = reinterpret_tensor(buf3, (2,
8), (8, 1), 0); del buf3  # reuse`` where the new buffer's shape differs, ``del buf1``),
walked in text order
per generated function (``call`` and any ``partition_N``), so the planned peak is the most
bytes of Inductor's own allocations alive at once in one function, held against their sum.
Sizes given by symbols (dynamic shapes) have no byte count: they are listed, not summed.
"""

from __future__ import annotations

import re
from typing import Any

_DEF = re.compile(r"^(?P<indent>\s*)def (?P<name>call|partition_\d+)\(")
# Sizes and strides are tuples of expressions that may hold parentheses of their own
# (``8*((7 + s27) // 8)``): the arguments are split at the commas outside them.
_ALLOC = re.compile(r"^(?P<name>buf\w+) = empty_strided(?:_(?P<device>\w+))?\((?P<args>.*)\)$")
_REUSE = re.compile(
    r"^(?P<name>buf\w+) = (?:reinterpret_tensor\()?(?P<old>buf\w+)(?:, [^;]*\))?; "
    r"del (?P=old)\s+# reuse"
)
_DEL = re.compile(r"^del (?P<names>[\w, ]+)$")

ITEMSIZE = {
    "float16": 2,
    "bfloat16": 2,
    "float32": 4,
    "float64": 8,
    "int8": 1,
    "int16": 2,
    "int32": 4,
    "int64": 8,
    "uint8": 1,
    "bool": 1,
    "complex64": 8,
    "complex128": 16,
    "float8_e4m3fn": 1,
    "float8_e5m2": 1,
    "float8_e4m3fnuz": 1,
    "float8_e5m2fnuz": 1,
}


def _split_top(text: str) -> list[str]:
    """The comma-separated parts of ``text`` outside any parentheses or brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _allocation(statement: str) -> tuple[str, str, list[str], list[str], str] | None:
    """``bufN = empty_strided_<device>((size), (stride), torch.<dtype>)`` -> its name,
    device, size and stride expressions and dtype; None for any other statement."""
    match = _ALLOC.match(statement)
    if not match:
        return None
    args = _split_top(match["args"])
    tuples = [a[1:-1] for a in args[:2] if a.startswith("(") and a.endswith(")")]
    if len(args) < 3 or len(tuples) != 2 or not args[2].startswith("torch."):
        return None
    size, stride = (_split_top(t) for t in tuples)
    return match["name"], match["device"] or "cpu", size, stride, args[2][len("torch.") :]


def _ints(parts: list[str]) -> list[int] | None:
    try:
        return [int(p) for p in parts]
    except ValueError:
        return None


def storage_bytes(size: list[int] | None, stride: list[int] | None, dtype: str) -> int | None:
    """Bytes of the storage a strided tensor spans; None where a size is symbolic."""
    itemsize = ITEMSIZE.get(dtype)
    if size is None or stride is None or itemsize is None or len(size) != len(stride):
        return None
    if any(s == 0 for s in size):
        return 0
    return (1 + sum((s - 1) * st for s, st in zip(size, stride))) * itemsize


def parse_buffers(code: str) -> dict[str, Any]:
    """The ``buffers`` section of one output code (see the module docstring)."""
    functions: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    def_indent = 0
    for number, raw in enumerate(code.splitlines(), 1):
        match = _DEF.match(raw)
        if match:
            current = {
                "name": match["name"],
                "line": number,
                "buffers": [],
                "reuses": [],
                "_live": {},
                "_now": 0,
                "planned_peak_bytes": 0,
            }
            def_indent = len(match["indent"])
            functions.append(current)
            continue
        if current is None or not raw.strip():
            continue
        if len(raw) - len(raw.lstrip()) <= def_indent:
            current = None
            continue
        line = raw.strip()
        for statement in [line] if _REUSE.match(line) else line.split("; "):
            _walk(current, statement, number)
    for fn in functions:
        sized = [b["bytes"] for b in fn["buffers"] if b["bytes"] is not None]
        fn["allocated_bytes"] = sum(sized)
        fn["unsized"] = len(fn["buffers"]) - len(sized)
        fn["without_reuse_bytes"] = fn["allocated_bytes"] + sum(
            r["bytes"] or 0 for r in fn["reuses"]
        )
        del fn["_live"], fn["_now"]
    return {
        "functions": functions,
        "allocated_bytes": sum(f["allocated_bytes"] for f in functions),
        "without_reuse_bytes": sum(f["without_reuse_bytes"] for f in functions),
        "planned_peak_bytes": max((f["planned_peak_bytes"] for f in functions), default=0),
        "buffers": sum(len(f["buffers"]) for f in functions),
        "reuses": sum(len(f["reuses"]) for f in functions),
    }


def _walk(fn: dict[str, Any], statement: str, number: int) -> None:
    live: dict[str, dict[str, Any]] = fn["_live"]
    if allocation := _allocation(statement):
        name, device, size, stride, dtype = allocation
        buffer = {
            "name": name,
            "shape": size,
            "dtype": dtype,
            "device": device,
            "bytes": storage_bytes(_ints(size), _ints(stride), dtype),
            "line": number,
            "freed_line": None,
        }
        fn["buffers"].append(buffer)
        live[buffer["name"]] = buffer
        fn["_now"] += buffer["bytes"] or 0
        fn["planned_peak_bytes"] = max(fn["planned_peak_bytes"], fn["_now"])
    elif match := _REUSE.match(statement):
        buffer = live.pop(match["old"], None)
        if buffer is not None:
            live[match["name"]] = buffer
            fn["reuses"].append(
                {
                    "name": match["name"],
                    "reuses": match["old"],
                    "bytes": buffer["bytes"],
                    "line": number,
                }
            )
    elif match := _DEL.match(statement):
        for name in (n.strip() for n in match["names"].split(",")):
            buffer = live.pop(name, None)
            if buffer is not None:
                buffer["freed_line"] = number
                fn["_now"] -= buffer["bytes"] or 0
