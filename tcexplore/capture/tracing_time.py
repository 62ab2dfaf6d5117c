"""How long Dynamo spent tracing each user function of a compile.

Two sources, and the section says which it used:

- ``dynamo_profiler`` (torch 2.13+, a live capture where the user switched the profiler
  on): torch's own profiler of Dynamo's tracing times every function it traces, inlined
  calls included, inclusive (cumulative) and exclusive (self) time, cProfile's way
  (_torch_compat.tracing_profiler says why capture does not switch it on itself). Times of
  every attempt of a compile are added: a restart after a graph break traces the frame
  again, and that time was spent too.
- ``chromium_events`` (otherwise: torch 2.11, 2.13 by default, every TORCH_TRACE log): the
  compile-time phases time ``bytecode_tracing`` per attempt, i.e. the frame's function
  with everything it inlined; no function below it is timed.
"""

from __future__ import annotations

from typing import Any

Data = dict[str, Any]
PHASE = "bytecode_tracing"


def tracing_section(record: Data, timings: list[Data]) -> Data | None:
    total = _phase_total(record["phases"])
    frame = record["frame"] or {}
    if timings:
        return {"source": "dynamo_profiler", "total_ms": total, "functions": _by_function(timings)}
    if total is None:
        return None
    return {
        "source": "chromium_events",
        "total_ms": total,
        "functions": [
            {
                "function": frame.get("function"),
                "file": frame.get("file"),
                "line": frame.get("line"),
                "cumtime_ms": total,
                "tottime_ms": None,
                "calls": None,
                "depth": 0,
            }
        ],
    }


def _phase_total(phases: list[Data]) -> float | None:
    found: list[float] = []
    stack = list(phases)
    while stack:
        phase = stack.pop()
        if phase["name"] == PHASE and phase["duration_ms"] is not None:
            found.append(phase["duration_ms"])
        else:
            stack.extend(phase["children"])
    return round(sum(found), 3) if found else None


def _by_function(timings: list[Data]) -> list[Data]:
    """One row per function, the longest inclusive time first. A function called again
    inside itself counts its outermost call only, as cProfile does."""
    rows: dict[tuple, Data] = {}
    for t in timings:
        key = (t["file"], t["line"], t["function"])
        row = rows.setdefault(
            key,
            {
                "function": t["function"],
                "file": t["file"],
                "line": t["line"],
                "cumtime_ms": 0.0,
                "tottime_ms": 0.0,
                "calls": 0,
                "depth": t["depth"],
            },
        )
        row["calls"] += 1
        row["tottime_ms"] += t["tottime_ns"] / 1e6
        if t.get("primitive", True):
            row["cumtime_ms"] += t["cumtime_ns"] / 1e6
        row["depth"] = min(row["depth"], t["depth"])
    for row in rows.values():
        row["cumtime_ms"] = round(row["cumtime_ms"], 3)
        row["tottime_ms"] = round(row["tottime_ms"], 3)
    return sorted(rows.values(), key=lambda r: -r["cumtime_ms"])
