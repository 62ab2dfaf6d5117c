"""A ``dis`` disassembly (what ``dis.Bytecode(code).dis()`` prints) -> instructions.

torch writes the bytecode of resume functions to TORCH_TRACE as this text, and capture's
bytecode hook disassembles every transformed frame the same way, so one parser reads both.
The layout is Python's, and it moved between versions:

- 3.10-3.12: ``LINE  [>>]  OFFSET  OPNAME  [ARG  [(ARGREPR)]]``, jump targets ``to 18``;
- 3.13+: ``LINE  [Ln:]  [OFFSET]  OPNAME ...``, offsets only with ``show_offsets``, jump
  targets as labels (``to L1``), ``--`` for an instruction with no line.

The line number stands at the start of a line (the first instruction of each source line);
the instructions after it until the next one belong to that line. The exception table at
the end is not instructions and stops the parse.
"""

from __future__ import annotations

import re
from typing import Any

_OPNAME = re.compile(r"(?<![\w>])([A-Z][A-Z0-9_]+)(?=\s|$)")
_LEAD = re.compile(r"^(?P<line>\s{0,7}(?:\d+|--))?(?P<marks>.*)$")
_ARG = re.compile(r"^\s*(?P<arg>-?\d+)?\s*(?:\((?P<argrepr>.*)\))?\s*$")
_TARGET = re.compile(r"^to (?P<target>L\d+|\d+)$")
_NAME_WRAPPERS = ("NULL|self + ", "NULL + ", " + NULL|self", " + NULL")


def parse_bytecode(text: str) -> list[dict[str, Any]]:
    """Each instruction: offset (None where the text shows none), line, whether it starts
    its line, opname, arg, argrepr, its label (``L1`` or the offset a ``>>`` marks) and the
    jump target it names."""
    instructions: list[dict[str, Any]] = []
    line: int | None = None
    for raw in text.splitlines():
        if raw.startswith("ExceptionTable:"):
            break
        found = _OPNAME.search(raw)
        if not found or not raw.strip():
            continue
        head, tail = raw[: found.start()], raw[found.end() :]
        lead = _LEAD.match(head)
        starts = lead["line"] is not None
        if starts:
            text_line = lead["line"].strip()
            line = None if text_line == "--" else int(text_line)
        marks = lead["marks"].split()
        label = next((m[:-1] for m in marks if re.fullmatch(r"L\d+:", m)), None)
        numbers = [m for m in marks if m.isdigit()]
        offset = int(numbers[-1]) if numbers else None
        if label is None and ">>" in marks and offset is not None:
            label = str(offset)
        arg = _ARG.match(tail)
        if arg is None:
            continue
        argrepr = arg["argrepr"]
        target = _TARGET.match(argrepr or "")
        instructions.append(
            {
                "offset": offset,
                "line": line,
                "starts_line": starts,
                "opname": found[1],
                "arg": int(arg["arg"]) if arg["arg"] is not None else None,
                "argrepr": argrepr,
                "label": label,
                "target": target["target"] if target else None,
            }
        )
    return instructions


def plain_name(argrepr: str | None) -> str:
    """``NULL + print``, ``sin + NULL|self`` -> the name alone."""
    name = argrepr or ""
    for wrapper in _NAME_WRAPPERS:
        name = name.replace(wrapper, "")
    return name


def pushes_null(instruction: dict[str, Any]) -> str | None:
    """Where a LOAD_GLOBAL/LOAD_ATTR also pushes NULL (or self): "before" (3.11/3.12 print
    ``NULL + name``), "after" (3.13 prints ``name + NULL``), or None."""
    argrepr = instruction["argrepr"] or ""
    if argrepr.startswith("NULL"):
        return "before"
    if argrepr.endswith(("+ NULL", "+ NULL|self")):
        return "after"
    return None
