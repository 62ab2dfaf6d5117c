"""Log messages of a compile or, naming none, of the session (``runtime``): CUDA graphs,
Inductor's performance hints, Python warnings."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..events import Event
from ..parsers.cudagraphs import apply_cudagraph_message
from .registry import handles

if TYPE_CHECKING:
    from ..assemble import Assembler


@handles("log_cudagraphs")
def _cudagraphs_log(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    message = event.data["message"]
    if record is None and (m := re.match(r"^\[(?P<cid>!?[\d/]+)\] ", message)):
        record = assembler.compiles.get(m["cid"])  # run-time messages name their compile
    apply_cudagraph_message(
        record["cudagraphs"] if record else assembler.session_cudagraphs, message
    )


@handles("log_perf_hints")
def _perf_hint(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    hint = {"level": event.data["level"], "message": event.data["message"][:4000]}
    (record["perf_hints"] if record else assembler.session_perf_hints).append(hint)


@handles("python_warning")
def _python_warning(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    warning = dict(event.data)
    (record["warnings"] if record else assembler.session_warnings).append(warning)
    if "Unable to hit fast path of CUDAGraphs" in warning["message"]:
        target = record["cudagraphs"] if record else assembler.session_cudagraphs
        target["fast_path_missed"] = {
            "message": warning["message"],
            "explanation": "The CUDA graph cannot be replayed while outputs of an earlier "
            "call still wait for their backward: torch falls back to a slow "
            "path, which can make reduce-overhead slower than eager.",
            "fix": "Call backward() before the next step; for inference run under "
            "torch.no_grad(); or call torch.compiler.cudagraph_mark_step_begin() "
            "before each model invocation.",
        }
