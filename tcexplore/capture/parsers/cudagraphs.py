"""CUDA-graph decisions from torch's ``cudagraphs`` / ``perf_hints`` log messages.

Inductor logs the graph partitions it made (``Created 2 graph partitions: 1 cudagraphable,
1 non-cudagraphable`` then one line per partition, and at DEBUG each op with the reason it
is or is not CUDA-graphable and its user stack), why it skipped CUDA graphs
(``skipping cudagraphs due to mutated inputs ... Found from: <user stack>``), and at run
time each (re-)recording of a CUDA graph.
"""

from __future__ import annotations

import re
from typing import Any

_CREATED = re.compile(
    r"Created (?P<n>\d+) graph partitions: (?P<yes>\d+) cudagraphable, (?P<no>\d+) non-cudagraphable"
)
_PARTITION = re.compile(
    r"Partition (?P<i>\d+): (?P<nodes>\d+) nodes, (?P<kind>non-cudagraphable|cudagraphable)(?P<rest>.*)$"
)
_SKIP = re.compile(r"skipping cudagraphs? (?:due to|for) (?P<reason>.*)", re.S)
_FOUND_FROM_SPLIT = re.compile(r"\.?\s*Found from\s*:")
_FOUND_FROM = re.compile(
    r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<fn>\S+)\n?(?P<code>[^\n]*)'
)
_OP = re.compile(r"^\s*op(?P<i>\d+): reason=(?P<reason>.*?), ir=(?P<ir>\w+), fx=(?P<fx>.*)$", re.M)
_RECORDING = re.compile(r"^(?:\[\S+\] )?(?P<what>Recording|Re-recording) function=(?P<fn>\S+?),")


def apply_cudagraph_message(state: dict[str, Any], message: str) -> None:
    """Fold one log message into the record's ``cudagraphs`` state."""
    if m := _CREATED.search(message):
        state["partitions"] = []
        state["summary"] = {
            "partitions": int(m["n"]),
            "cudagraphable": int(m["yes"]),
            "non_cudagraphable": int(m["no"]),
        }
    elif m := _PARTITION.search(message):
        state["partitions"].append(
            {
                "index": int(m["i"]),
                "nodes": int(m["nodes"]),
                "cudagraphable": m["kind"] == "cudagraphable",
                "detail": m["rest"].strip(" ,"),
            }
        )
    elif (m := _OP.match(message)) and state["partitions"]:
        # Inductor lists each op with the reason it is (not) in a CUDA-graphable partition.
        stack = [
            {
                "file": f["file"],
                "line": int(f["line"]),
                "function": f["fn"],
                "code": f["code"].strip() or None,
            }
            for f in _FOUND_FROM.finditer(message)
        ]
        state["partitions"][-1].setdefault("ops", []).append(
            {
                "op": int(m["i"]),
                "reason": m["reason"],
                "ir": m["ir"],
                "fx": m["fx"].strip(),
                "user_stack": stack,
            }
        )
    elif m := _SKIP.search(message):
        reason, *found = _FOUND_FROM_SPLIT.split(m["reason"], maxsplit=1)
        found = found[0] if found else ""
        stack = [
            {
                "file": f["file"],
                "line": int(f["line"]),
                "function": f["fn"],
                "code": f["code"].strip() or None,
            }
            for f in _FOUND_FROM.finditer(found)
        ]
        state["skips"].append({"reason": reason.strip(), "user_stack": stack})
    elif m := _RECORDING.search(message):
        state["recordings" if m["what"] == "Recording" else "rerecordings"] = (
            state.get("recordings" if m["what"] == "Recording" else "rerecordings", 0) + 1
        )
    else:
        state["messages"].append(message[:2000])
