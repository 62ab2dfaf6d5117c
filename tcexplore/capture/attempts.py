"""Restarted attempts of a compile: the Dynamo graphs of attempts torch discarded.

Dynamo restarts a frame's analysis (a graph break found late, or
``TensorifyScalarRestartAnalysis`` after a graph with a Python float input was output) and
traces it again under the same compile id with the next ``attempt``. tlparse keeps each
attempt apart (``[2/1]`` and ``[2/1_1]``) and counts every Dynamo graph output; the record
keeps the last attempt's graph in ``dynamo_graph`` and earlier ones in
``restarted_attempts``, so ``summary.graphs`` counts as tlparse does.
"""

from __future__ import annotations

import re
from typing import Any

# torch names a restart without a message by its exception's class: "<class 'a.b.C'>".
_CLASS = re.compile(r"^<class '(?:[\w.]*\.)?(\w+)'>$")


def reason_line(reason: str) -> str:
    """A restart reason in one line, as the views name it: its first line, an exception's
    class by its name alone ("TensorifyScalarRestartAnalysis")."""
    line = reason.split("\n", 1)[0]
    found = _CLASS.match(line)
    return found[1] if found else line


def keep_restarted_graph(record: dict[str, Any]) -> None:
    """Called as a later attempt of the record begins: the graph the attempt so far output
    (if any) is kept, and the new attempt starts without one."""
    if record["dynamo_graph"] is not None:
        record.setdefault("restarted_attempts", []).append(
            {"attempt": record["attempts"] - 1, "graph": record["dynamo_graph"], "reason": None}
        )
        record["dynamo_graph"] = None


def name_restart_reasons(record: dict[str, Any]) -> None:
    """torch reports a compile's restart reasons as a set, not per attempt: a restarted
    attempt gets its reason where there is one reason only, else none (the record's
    ``restart_reasons`` lists them all)."""
    reasons = record["restart_reasons"]
    for attempt in record.get("restarted_attempts", []):
        attempt["reason"] = reasons[0] if len(reasons) == 1 else None
        attempt["reason_line"] = reason_line(reasons[0]) if len(reasons) == 1 else None
