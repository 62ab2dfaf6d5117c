"""Where each compiled frame broke, in its own code: the line of its entry in the user stack
of each of its graph-break events (capture/resume_links.py's ``frame_entry``, which reads a
resume function's entry under its own name or the function it goes on with, as torch names
it either way). Stored as ``break_lines`` (compile id -> lines): the Bytecode views mark the
original code's instructions of those lines."""

from __future__ import annotations

from typing import Any

from ..capture.resume_links import frame_entry

Data = dict[str, Any]


def break_lines(data: Data) -> dict[str, list[int]]:
    frames = {
        c.get("id"): c.get("frame")
        for c in data.get("compiles") or []
        if isinstance(c, dict) and isinstance(c.get("frame"), dict)
    }
    lines: dict[str, list[int]] = {}
    for brk in data.get("graph_breaks") or []:
        frame = frames.get(brk.get("compile_id")) if isinstance(brk, dict) else None
        entry = frame_entry(brk, frame) if frame else None
        if entry is not None:
            found = lines.setdefault(str(brk["compile_id"]), [])
            if entry["line"] not in found:
                found.append(entry["line"])
    return lines
