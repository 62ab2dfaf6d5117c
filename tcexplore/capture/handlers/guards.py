"""What a compile's code is guarded on: the guard tree, recompile reasons, shape symbols and
the symbolic guards and specializations torch added for them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events import Event
from ..parsers.guards import parse_guards
from ..parsers.recompiles import parse_recompile_reasons
from .registry import handles

if TYPE_CHECKING:
    from ..assemble import Assembler


@handles("dynamo_cpp_guards_str")
def _guards(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    record["guards_text"] = event.payload
    record["guards"] = parse_guards(event.payload or "")


@handles("recompile_reasons")
def _recompile(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    reasons = parse_recompile_reasons(event.payload)
    for reason in reasons:  # the compile it names is of this generation
        if reason["failed_compile_id"]:
            reason["failed_compile_id"] = assembler.generations.named(reason["failed_compile_id"])
    record["recompile_reasons"].append(reasons)


@handles("create_symbol")
def _symbol(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    """A compile's shape symbol; compiled autograd makes its graph's input sizes symbols
    before any frame is compiled: those are its pass's."""
    owner = record if record is not None else assembler.autograd_pass(event)
    if owner is None:
        return
    data = event.data or {}
    owner["symbols"].append(
        {
            "symbol": data.get("symbol"),
            "value": data.get("val"),
            "range": data.get("vr"),
            "source": data.get("source"),
            "user_location": assembler.frame_from_stack(data.get("user_stack")),
        }
    )


@handles("create_unbacked_symbol")
def _unbacked_symbol(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    """A size or value read from a tensor (``nonzero()``, ``.item()``): no example value, no
    source; the user line that made it."""
    if record is None:
        return
    data = event.data or {}
    record["symbols"].append(
        {
            "symbol": data.get("symbol"),
            "value": None,
            "range": data.get("vr"),
            "source": None,
            "unbacked": True,
            "user_location": assembler.frame_from_stack(data.get("user_stack")),
        }
    )


@handles("guard_added_fast", "guard_added", "symbolic_shape_specialization")
def _symbolic_guard(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    owner = record if record is not None else assembler.autograd_pass(event)
    if owner is None:
        return
    data = event.data or {}
    owner["symbolic_guards"].append(
        {
            "kind": event.kind,
            "expr": data.get("expr") or data.get("symbol"),
            "user_location": assembler.frame_from_stack(data.get("user_stack")),
        }
    )
