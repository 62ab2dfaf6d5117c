"""Graph breaks from ``dynamo_graph_break_reason`` text.

torch writes: ``Graph break in user code at FILE:LINE``, ``Graph Break Reason: ...``, an
explanation with ``Explanation:``/``Hint:`` lines, a ``Developer debug context:`` line (what
Dynamo was looking at, for torch's developers), ``User code traceback:`` frames, then torch's
own traceback (dropped: it shows Dynamo internals, not the user's code).

The reason is stored whole (``reason``, torch's words as tlparse shows them) and split once
here: the specific message (the line after the generic "Encountered graph break when
attempting to trace ..."), that generic line, and the lines after the message (``details``).
The views group and draw those parts; none splits the reason again.
"""

from __future__ import annotations

import re
from typing import Any

_AT = re.compile(r"^Graph break in user code at (?P<file>.+):(?P<line>\d+)$")
_FRAME = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+), in (?P<fn>.+)$')
_LINK = re.compile(r"https://\S+")
GENERIC_PREFIX = "Encountered graph break when attempting to trace"
# torch's words when it cannot go on after a break in the frame it compiles (a break in a
# loop, a bytecode it cannot resume after): it skips the frame, which runs eagerly; the
# break it met follows.
SKIPPED_PREFIX = "Failed to handle graph break gracefully."
_SKIPPED_TAIL = "Graph break encountered:"


def split_reason(reason: Any) -> dict[str, Any]:
    """torch's reason -> message (the specific line), generic (the first line when it is the
    generic one, else None), details (the lines after the message, else None), and
    skipped_frame (torch's words that it skipped the frame, when it did: the message is
    then the break it met)."""
    lines = [line for line in str(reason or "").splitlines() if line.strip()]
    generic = skipped = None
    if lines and lines[0].startswith(SKIPPED_PREFIX) and len(lines) > 1:
        skipped = lines.pop(0).strip().removesuffix(_SKIPPED_TAIL).strip()
    if lines and lines[0].startswith(GENERIC_PREFIX):
        generic = lines.pop(0).strip()
    message = lines.pop(0).strip() if lines else (generic or "")
    return {
        "message": message,
        "generic": generic,
        "details": "\n".join(lines) or None,
        "skipped_frame": skipped,
    }


def parse_graph_break(text: str) -> dict[str, Any]:
    lines = text.splitlines()
    record: dict[str, Any] = {
        "file": None,
        "line": None,
        "reason": "",
        "explanation": None,
        "hints": [],
        "link": None,
        "developer_context": None,
        "user_stack": [],
    }
    reason_lines: list[str] = []
    section = "head"
    for i, line in enumerate(lines):
        stripped = line.strip()
        if section == "head" and (m := _AT.match(stripped)):
            record["file"], record["line"] = m["file"], int(m["line"])
        elif stripped.startswith("Graph Break Reason:"):
            section = "reason"
            reason_lines.append(stripped[len("Graph Break Reason:") :].strip())
        elif stripped == "User code traceback:":
            section = "stack"
        elif stripped.startswith("Traceback (most recent call last)"):
            break
        elif section == "reason":
            if stripped.startswith("Explanation:"):
                record["explanation"] = stripped[len("Explanation:") :].strip()
            elif stripped.startswith("Hint:"):
                record["hints"].append(stripped[len("Hint:") :].strip())
            elif stripped.startswith("Developer debug context:"):
                record["developer_context"] = stripped[len("Developer debug context:") :].strip()
            elif link := _LINK.search(stripped):
                record["link"] = link.group(0)
            elif stripped:
                reason_lines.append(stripped)
        elif section == "stack" and (m := _FRAME.match(line)):
            code = (
                lines[i + 1].strip()
                if i + 1 < len(lines) and not _FRAME.match(lines[i + 1])
                else None
            )
            record["user_stack"].append(
                {"file": m["file"], "line": int(m["line"]), "function": m["fn"], "code": code}
            )
    record["reason"] = "\n".join(r for r in reason_lines if r)
    record.update(split_reason(record["reason"]))
    if record["user_stack"] and record["file"] is None:
        last = record["user_stack"][-1]
        record["file"], record["line"] = last["file"], last["line"]
    return record
