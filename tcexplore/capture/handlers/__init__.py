"""The event handlers, one module per document section; importing this package registers
them all, so ``HANDLERS`` is complete once it is imported.

handler_for(kind) is what the Assembler asks: the handler of that kind, IGNORED for kinds
known to carry nothing shown, or None for a kind no handler claims (counted, never fatal).
"""

from __future__ import annotations

# Each section module registers its handlers as it is imported.
from . import (  # noqa: F401
    compiled_autograd,
    frames,
    graph_breaks,
    graphs,
    guards,
    metrics,
    runtime_logs,
    timing,
)
from .bytecode import bytecode_artifact_handler
from .registry import HANDLERS, IGNORED, Handler

__all__ = ["HANDLERS", "IGNORED", "handler_for"]


def handler_for(kind: str) -> Handler | None:
    return HANDLERS.get(kind) or bytecode_artifact_handler(kind)
