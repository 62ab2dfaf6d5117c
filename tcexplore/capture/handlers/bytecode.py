"""Bytecode kept (render/bytecode.py draws it): both code objects of a transformed frame,
kept until finish() reads them, from the bytecode hook in a live capture, else from torch's
``*_ORIGINAL/_MODIFIED_BYTECODE`` artifacts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events import Event
from .payloads import bounded_text
from .registry import Handler, handles

if TYPE_CHECKING:
    from ..assemble import Assembler


@handles("bytecode_hook")
def _bytecode_hook(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    """A live capture hears both code objects of every transformed frame (capture/bytecode_hook.py)."""
    if record is None:
        return
    data = event.data
    assembler.bytecode_texts[record["id"]] = {
        "source": "bytecode_hook",
        "original": bounded_text(data["original"]),
        "modified": bounded_text(data["modified"]),
        "side_effects": data.get("side_effects"),
    }


_BYTECODE_ARTIFACTS = {"_ORIGINAL_BYTECODE": "original", "_MODIFIED_BYTECODE": "modified"}


def bytecode_artifact_handler(kind: str) -> Handler | None:
    """torch writes ``<co_name>_ORIGINAL_BYTECODE`` / ``_MODIFIED_BYTECODE`` artifacts for
    resume functions (the kind carries the function's name, so no fixed key matches it)."""
    part = next((p for suffix, p in _BYTECODE_ARTIFACTS.items() if kind.endswith(suffix)), None)
    if part is None:
        return None

    def handle(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
        if record is None:
            return
        heard = assembler.bytecode_texts.setdefault(record["id"], {"source": "trace_artifact"})
        if heard["source"] == "trace_artifact":  # the hook, where there is one, holds both
            heard[part] = bounded_text(event.payload)

    return handle
