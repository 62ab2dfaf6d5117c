"""The handler registry: event kind -> the function that turns such an event into document
fields (tlparse's design: "is this event mine, what does it become")."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..events import Event

if TYPE_CHECKING:
    from ..assemble import Assembler

Handler = Callable[["Assembler", Event, Any], None]
HANDLERS: dict[str, Handler] = {}


def IGNORED(assembler: Assembler, event: Event, record: Any) -> None:
    """Events known to carry nothing the document shows (envelope/meta-data events)."""


def handles(*kinds: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for kind in kinds:
            HANDLERS[kind] = fn
        return fn

    return register


for _kind in (
    "describe_storage",
    "describe_tensor",
    "describe_source",
    "dynamo_guards",
    "torch_version",
    "aot_forward_graph_fw_metadata",
    "inductor_provenance_tracking_kernel_stack_traces",
    "fx_graph_runnable",
    "runtime_wrapper_orchestration",
    "before_pre_grad_graph",
    "after_pre_grad_graph",
    "before_joint_graph",
    "after_joint_graph",
    "before_post_grad_graph",
):
    HANDLERS[_kind] = IGNORED
