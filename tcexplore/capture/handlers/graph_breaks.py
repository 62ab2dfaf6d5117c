"""The document's ``graph_breaks``: one entry per dynamo_graph_break_reason event, its stack
from the user's top level on (own_frames.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events import Event
from ..own_frames import without_own_frames
from ..parsers.graph_breaks import parse_graph_break
from .registry import handles

if TYPE_CHECKING:
    from ..assemble import Assembler


@handles("dynamo_graph_break_reason")
def _graph_break(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    brk = parse_graph_break(event.payload or "")
    brk["user_stack"] = without_own_frames(brk["user_stack"])
    brk["compile_id"] = record["id"] if record else None
    brk["attempt"] = event.attempt
    assembler.graph_breaks.append(brk)
