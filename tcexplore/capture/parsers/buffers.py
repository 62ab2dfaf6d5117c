"""Inductor's output code -> the buffers its wrapper allocates, reuses and frees.

Read from the wrapper's own statements (``buf0 = empty_strided_cpu((4, 16), (16, 1),
torch.float32)``, ``buf3 = buf0; del buf0  # reuse``, ``del buf1``), walked in text order
per generated function (``call`` and any ``partition_N``), so the planned peak is the most
bytes of Inductor's own allocations alive at once in one function, held against their sum.
Sizes given by symbols (dynamic shapes) have no byte count: they are listed, not summed.
"""

from __future__ import annotations

import re
from typing import Any

_DEF = re.compile(r"^(?P<indent>\s*)def (?P<name>call|partition_\d+)\(")
_ALLOC = re.compile(
    r"^(?P<name>buf\w+) = empty_strided(?:_(?P<device>\w+))?\(\((?P<size>[^)]*)\), "
    r"\((?P<stride>[^)]*)\), torch\.(?P<dtype>\w+)"
)
_REUSE = re.compile(r"^(?P<name>buf\w+) = (?P<old>buf\w+); del (?P=old)\s+# reuse")
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


def _ints(text: str) -> list[int] | None:
    parts = [p.strip() for p in text.split(",") if p.strip()]
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
    if match := _ALLOC.match(statement):
        size, stride = _ints(match["size"]), _ints(match["stride"])
        buffer = {
            "name": match["name"],
            "shape": [p.strip() for p in match["size"].split(",") if p.strip()],
            "dtype": match["dtype"],
            "device": match["device"] or "cpu",
            "bytes": storage_bytes(size, stride, match["dtype"]),
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
