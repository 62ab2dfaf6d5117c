"""Where compile time went: one row per compile, one column per major phase.

Durations come from the phase tree (torch's ``chromium_event`` records). Phases nest, so
the columns marked "of which" are parts of the column before them; the backward graph
(compiled at the first backward call) has its own column and is left out of the others.
"""

from __future__ import annotations

from typing import Any

from .markup import _compile_link, _details, _e, _note, _table

# (header, phase name)
COLUMNS = (
    ("total", "entire_frame_compile"),
    ("Dynamo tracing", "bytecode_tracing"),
    ("AOTAutograd", "create_aot_dispatcher_function"),
    ("of which Inductor", "inductor_compile"),
    ("of which codegen", "GraphLowering.codegen"),
    ("of which loading and compiling kernels", "PyCodeCache.load_by_key_path"),
    ("guards", "build_guards"),
)
BACKWARD = "entire_backward_compile"


def _durations(phases: list[Any], totals: dict[str, float]) -> None:
    for phase in phases:
        if not isinstance(phase, dict) or phase.get("name") == BACKWARD:
            continue
        if isinstance(phase.get("duration_ms"), (int, float)):
            totals[phase["name"]] = totals.get(phase["name"], 0.0) + phase["duration_ms"]
        _durations(phase.get("children") or [], totals)


def _ms(value: float | None) -> str:
    return _e(f"{value:.1f}") if value is not None else '<span class="tcx-muted">—</span>'


def compile_time(compiles: list[Any]) -> str:
    rows = []
    for compile_ in compiles:
        if not isinstance(compile_, dict) or not compile_.get("phases"):
            continue
        totals: dict[str, float] = {}
        _durations(compile_["phases"], totals)
        backward = sum(
            p.get("duration_ms") or 0.0
            for p in compile_["phases"]
            if isinstance(p, dict) and p.get("name") == BACKWARD
        )
        rows.append(
            [_compile_link(compile_.get("id"))]
            + [_ms(totals.get(name)) for _, name in COLUMNS]
            + [_ms(backward or None)]
        )
    if not rows:
        return ""
    headers = ["compile"] + [f"{h} (ms)" for h, _ in COLUMNS] + ["backward compile (ms)"]
    body = _table(headers, rows, "tcx-compile-time-table") + _note(
        'Phases nest: "of which" columns are parts of AOTAutograd\'s time (the '
        "forward graph is compiled by Inductor inside it). Each compile's full "
        "phase tree is under its own section."
    )
    return _details(
        "Compile time by phase", body, cls="tcx-section tcx-compile-time", id_="tcx-compile-time"
    )
