"""Compile time as torch reports it: chromium_event phases (the phase tree is built in
finish()) and Dynamo's tracing profiler timings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events import Event
from ..generations import BEGIN_PHASES
from .payloads import json_or_none
from .registry import handles

if TYPE_CHECKING:
    from ..assemble import Assembler


@handles("chromium_event")
def _chromium(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    """A phase's begin or end, under the compile its ``compile_id`` names in the generation
    it opens or runs in (a compile's first phases precede its dynamo_start)."""
    data = json_or_none(event.payload)
    if not isinstance(data, dict):
        return
    named = (data.get("args") or {}).get("compile_id")
    raw = named if isinstance(named, str) and named != "None" else event.compile_id
    cid = None
    if raw is not None:
        begins = data.get("ph") == "B" and data.get("name") in BEGIN_PHASES
        cid, _ = assembler.generations.resolve(raw, begins=begins)
    assembler.chromium.append((cid, data))


@handles("dynamo_profiler")
def _dynamo_profiler(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    if record is None:
        return
    assembler.profiler_timings.setdefault(record["id"], []).extend(event.data["timings"])
