"""Compiled autograd's own events: the backward graph it captured (``compiled_autograd_graph``)
before Dynamo traces it. They carry a ``compiled_autograd_id`` and no frame: they belong to
the pass (tlparse's ``!0/-/-``), not to a compile; the pass's Dynamo compiles (``!0/1/0``)
are ordinary records."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events import Event
from ..parsers.fx_text import parse_graph
from .payloads import bounded_text
from .registry import IGNORED, handles

if TYPE_CHECKING:
    from ..assemble import Assembler


@handles("compiled_autograd_graph")
def _autograd_graph(assembler: Assembler, event: Event, record: Any) -> None:
    autograd = assembler.autograd_pass(event)
    if autograd is not None:
        autograd["graph"] = {**bounded_text(event.payload), **parse_graph(event.payload or "")}


# The same graph before compiled autograd reordered its nodes: the graph kept is the one
# Dynamo traced.
handles("compiled_autograd_graph_pre_reordering")(IGNORED)
