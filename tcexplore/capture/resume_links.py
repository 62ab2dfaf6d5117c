"""Each compile's bytecode section, and the links between a break, its jumps and the resume
functions' compiles.

A frame that breaks is replaced by code that calls the compiled graph, runs the breaking
instruction eagerly and jumps into a resume function (global ``__resume_at_<offset>_<n>``:
the offset is the instruction of the frame's own code where it goes on). torch names the
resume function after the frame and the frame's line that broke
(``torch_dynamo_resume_in_f_at_19``, :func:`resume_name`), and compiles it as a
frame of its own when it first runs. So:

- a resume function's compile continues the latest break event before it, in this run,
  whose frame names it (``resume_of``);
- a jump in a compile's modified code leads to the resume compiles that continue that
  compile's break. Where one compile holds several jumps to functions of the same name
  (both ways of a data-dependent branch), torch does not say which jump a compile runs:
  the jumps say so (``shared_name``) instead of picking one.
"""

from __future__ import annotations

import re
from typing import Any

from .notebook_cells import CELL_FUNCTION, UNBOUND, WRAPPER_LINE
from .parsers.disassembly import parse_bytecode
from .transformed import read_modified

Data = dict[str, Any]

RESUME_PREFIX = "torch_dynamo_resume_in_"
RESUME_NAME = re.compile(r"^torch_dynamo_resume_in_(?P<fn>.+)_at_\d+$")


def bytecode_section(
    source: str, original: Data, modified: Data, side_effects: list[str] | None, cell: bool
) -> Data:
    """``original``/``modified``: the document's text records of the two disassemblies.
    ``cell``: the frame is a ``%%tcompile`` cell's function (or resumes one): its wrapper's
    own instructions (at :data:`WRAPPER_LINE`) and its return of the cell's values are
    marked ``wrapper``, so that no view shows them as the user's code."""
    original = {**original, "instructions": parse_bytecode(original["text"])}
    modified = {**modified, "instructions": parse_bytecode(modified["text"])}
    reading = read_modified(modified["instructions"])
    if cell:
        for ins in original["instructions"]:
            if ins["line"] == WRAPPER_LINE:
                ins["wrapper"] = True
        _mark_unbound_names(original["instructions"])
        _mark_unbound_names(modified["instructions"])
        for step in reading["steps"]:
            if step["kind"] == "return":
                step["wrapper"] = True
                step["text"] = f"{step['text']}: the cell's values, handed back by its wrapper"
                for i in step["instructions"]:
                    modified["instructions"][i]["wrapper"] = True
    return {
        "source": source,
        "original": original,
        "modified": modified,
        "side_effects": side_effects,
        "reading": reading,
        "resume_jumps": [],
    }


# What follows the wrapper's LOAD_CONST UNBOUND in ``a = b = UNBOUND``: its stores.
_UNBOUND_STORE = ("COPY", "DUP_TOP", "STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL")


def _mark_unbound_names(instructions: list[Data]) -> None:
    """The wrapper's ``a = b = UNBOUND`` (the names a cell starts unbound), wherever Dynamo
    put its line: the constant's load and the stores that follow it."""
    marking = False
    for ins in instructions:
        if ins.get("opname") == "LOAD_CONST" and ins.get("argrepr") == repr(UNBOUND):
            marking = True
        elif not (marking and ins.get("opname") in _UNBOUND_STORE):
            marking = False
        if marking:
            ins["wrapper"] = True


def is_cell(function: Any) -> bool:
    """A ``%%tcompile`` cell's function, or a resume function Dynamo made of one."""
    return original_function(str(function or "")) == CELL_FUNCTION


def frame_entry(brk: Data, frame: Data) -> Data | None:
    """The frame's own entry in a break event's user stack: where the frame broke."""
    function, file = frame.get("function"), frame.get("file")
    if not function or not file:
        return None
    stack = [
        f
        for f in brk.get("user_stack") or []
        if isinstance(f, dict) and f.get("file") == file and isinstance(f.get("line"), int)
    ]
    # torch names a compiled resume frame in the stack by its own name or by the original's.
    return next((f for f in stack if f.get("function") == function), None) or next(
        (f for f in stack if f.get("function") == original_function(function)), None
    )


def original_function(function: str) -> str:
    """The user's function a resume function (of a resume function...) goes on with."""
    while match := RESUME_NAME.match(function):
        function = match["fn"]
    return function


def resume_name(brk: Data, frame: Data) -> str | None:
    """The resume function Dynamo names after the frame that broke and that frame's line."""
    entry = frame_entry(brk, frame)
    if entry is None:
        return None
    return f"{RESUME_PREFIX}{original_function(frame['function'])}_at_{entry['line']}"


def link_resumes(
    compiles: list[Data], graph_breaks: list[Data], breaks_before: dict[str, int]
) -> None:
    """Set ``resume_of`` on resume functions' compiles and ``resume_jumps`` on every
    bytecode section. ``breaks_before``: per compile id, how many break events came before
    the compile's first event."""
    by_id = {c["id"]: c for c in compiles}
    for record in compiles:
        frame = record["frame"] or {}
        if RESUME_NAME.match(frame.get("function") or ""):
            record["resume_of"] = _continued_break(
                record, by_id, graph_breaks, breaks_before.get(record["id"], 0)
            )
    for record in compiles:
        if record["bytecode"] is not None:
            record["bytecode"]["resume_jumps"] = _jumps(record, compiles, graph_breaks)


def _continued_break(
    record: Data, by_id: dict[str, Data], graph_breaks: list[Data], before: int
) -> Data | None:
    frame = record["frame"]
    for index in range(min(before, len(graph_breaks)) - 1, -1, -1):
        brk = graph_breaks[index]
        broken = (by_id.get(brk.get("compile_id")) or {}).get("frame") or {}
        if broken.get("file") == frame.get("file") and resume_name(brk, broken) == frame.get(
            "function"
        ):
            return {
                "graph_break": index,
                "compile_id": brk.get("compile_id"),
                "file": brk.get("file"),
                "line": brk.get("line"),
            }
    return None


def _jumps(record: Data, compiles: list[Data], graph_breaks: list[Data]) -> list[Data]:
    section = record["bytecode"]
    steps = [s for s in section["reading"]["steps"] if s["kind"] == "resume"]
    if not steps:
        return []
    own = [i for i, b in enumerate(graph_breaks) if b.get("compile_id") == record["id"]]
    brk_index = own[-1] if own else None
    name = (
        resume_name(graph_breaks[brk_index], record["frame"] or {})
        if brk_index is not None
        else None
    )
    continuing = [
        c["id"] for c in compiles if (c.get("resume_of") or {}).get("compile_id") == record["id"]
    ]
    lines = {
        i["offset"]: i["line"]
        for i in section["original"]["instructions"]
        if i["offset"] is not None
    }
    return [
        {
            "global": step["resume"],
            "offset": step["offset"],
            "line": lines.get(step["offset"]),
            "function": name,
            "graph_break": brk_index,
            "compiles": continuing,
            "shared_name": len(steps) > 1,
        }
        for step in steps
    ]
