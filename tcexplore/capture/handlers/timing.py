"""Compile time as torch reports it: chromium_event phases (the phase tree is built in
finish()) and Dynamo's tracing profiler timings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events import Event
from .payloads import json_or_none
from .registry import handles

if TYPE_CHECKING:
    from ..assemble import Assembler


@handles("chromium_event")
def _chromium(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    data = json_or_none(event.payload)
    if isinstance(data, dict):
        assembler.chromium.append((record["id"] if record else None, data))


@handles("dynamo_profiler")
def _dynamo_profiler(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    if record is None:
        return
    assembler.profiler_timings.setdefault(record["id"], []).extend(event.data["timings"])
