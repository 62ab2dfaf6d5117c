"""Where a compile begins and what cut it short: interned file names, dynamo_start's frame
and stack (from the user's top level on: own_frames.py), the interruption capture adds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events import Event
from ..own_frames import without_own_frames
from .registry import handles

if TYPE_CHECKING:
    from ..assemble import Assembler


@handles("str")
def _interned_string(assembler: Assembler, event: Event, record: Any) -> None:
    name, index = event.data
    assembler.filenames[index] = name


@handles("dynamo_start")
def _dynamo_start(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    if record["frame"] is None:
        stack = (event.data or {}).get("stack")
        record["frame"] = assembler.frame_from_stack(stack)
        record["stack"] = without_own_frames(assembler.frames_from_stack(stack))


@handles("compile_interrupted")
def _compile_interrupted(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    """Added by capture: the BaseException passing through torch's end of this compile."""
    assembler.interruptions[record["id"]] = dict(event.data)
