"""The user's line each guard is shown at (the Guards tab's "user code" column), and each
failed guard of a recompile.

torch prints one location per guard: the innermost frame it was tracing when it added the
guard. That is the user's line when the guard comes from the user's code; it is torch's own
line for a guard torch adds to every frame (``_dynamo/output_graph.py:1135 in
init_ambient_guards``) or adds with no user frame traced, and a library's line for a value
first used inside a library (``nn/modules/sparse.py:189``). The user's nearest line is then
the compiled frame itself: the guard is checked at each call of it. A recompile's failed
guard is located as the guard of the cached compile it names (torch's reason often gives
no line: ``tensor 'ids' size mismatch at index 1``).

Stored on each guard and reason as ``user_line``: ``{file, line, function, code, where,
frame}`` (``frame``: the line is the compiled frame's, the guard's own location being
``library_line``), or None where neither is the user's. No torch import.
"""

from __future__ import annotations

import os
import re
from typing import Any

from ..capture.parsers.guards import FIRST_USE
from .graph_break_audit import library_marks, source_labels
from .make import short_where
from .user_terms import in_user_words, source_name, user_function

Data = dict[str, Any]

_TENSOR = re.compile(r"^tensor '(?P<name>.+?)' ")


def users_line(where: Any, library: frozenset[str], labels: dict[str, str]) -> bool:
    """A location that is the user's: not library code, not torch's own line (no user frame
    traced; or a path torch cut short below its package, which capture completes where
    torch is installed), not the first use torch names for a guard that is not due to the
    user's code (a 0/1 specialization; a document parsed before the note was split off has
    it in ``function``)."""
    if not isinstance(where, dict) or not isinstance(where.get("file"), str):
        return False
    file = where["file"]
    return (
        file not in library
        and not where.get("torch_own")
        and (os.path.isabs(file) or file in labels)
        and FIRST_USE not in f"{where.get('note')} {where.get('function')}"
    )


def _said(where: Any) -> str | None:
    if not isinstance(where, dict) or not where.get("file"):
        return None
    fn = f" in {where['function']}" if where.get("function") else ""
    return f"{where['file']}:{where.get('line')}{fn}"


def _line(
    where: Any, code: Any, frame: Any, library: frozenset[str], labels: dict[str, str]
) -> Data | None:
    if users_line(where, library, labels):
        return _entry(where, code, labels, frame=False)
    if not users_line(frame, library, labels):
        return None
    return {**_entry(frame, None, labels, frame=True), "library_line": _said(where)}


def _entry(at: Any, code: Any, labels: dict[str, str], *, frame: bool) -> Data:
    """A user line at ``at``: the guard's own, or (``frame``) the compiled frame's call."""
    return {
        "file": at["file"],
        "line": at.get("line"),
        "function": user_function(at.get("function")),
        "code": code,
        "where": short_where(at["file"], at.get("line"), labels),
        "frame": frame,
    }


def _guard_of(reason: Data, cached: Data | None) -> Data | None:
    """The cached compile's guard that a failed guard is: the same expression, else the
    tensor it names (``tensor 'ids' ...``: the TENSOR_MATCH on ``ids``)."""
    guards = [g for g in (cached or {}).get("guards") or [] if isinstance(g, dict)]
    text = str(reason.get("guard") or "")
    same = next((g for g in guards if g.get("expression") == text), None)
    if same is not None:
        return same
    named = _TENSOR.match(text)
    if not named:
        return None
    return next(
        (
            g
            for g in guards
            if g.get("type") == "TENSOR_MATCH"
            and named["name"] in (g.get("source"), source_name(g.get("source")))
        ),
        None,
    )


def decide(data: Data) -> None:
    """Each guard's and failed guard's ``user_line``; each compiled frame's ``shown_name``
    (a resume function named as the user's function after its graph break), which the
    Guards tab's titles use."""
    compiles = [c for c in data.get("compiles") or [] if isinstance(c, dict)]
    library, labels = library_marks(data), source_labels(data)
    for c in compiles:
        if isinstance(c.get("frame"), dict) and c["frame"].get("function"):
            c["frame"]["shown_name"] = in_user_words(str(c["frame"]["function"]))
        for g in c.get("guards") or []:
            if isinstance(g, dict):
                g["user_line"] = _line(
                    g.get("user_location"), g.get("user_code"), c.get("frame"), library, labels
                )
    by_id = {str(c.get("id")): c for c in compiles}
    for c in compiles:
        for group in c.get("recompile_reasons") or []:
            for reason in group or []:
                if not isinstance(reason, dict):
                    continue
                cached = by_id.get(str(reason.get("failed_compile_id")))
                guard = _guard_of(reason, cached)
                where = reason.get("user_location") or (guard or {}).get("user_location")
                code = reason.get("user_code") or (guard or {}).get("user_code")
                frame = (cached or c).get("frame")
                reason["user_line"] = _line(where, code, frame, library, labels)
