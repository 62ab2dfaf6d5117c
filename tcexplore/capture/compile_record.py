"""A compile's record as it begins: every field of the document's ``compiles[]`` at its
empty value, which the handlers fill and ``Assembler.finish()`` completes."""

from __future__ import annotations

from typing import Any

from .events import Event


def new_compile_record(cid: str, event: Event, generation: int = 1) -> dict[str, Any]:
    return {
        "id": cid,
        "generation": generation,
        "frame_id": event.frame_id,
        "frame_compile_id": event.frame_compile_id,
        "frame_compile_index": 0,  # among this document's compiles of the frame: finish()
        "compiled_autograd_id": event.compiled_autograd_id,
        "attempts": 1,
        "frame": None,
        "stack": [],
        "status": "incomplete",
        "error": None,
        "restart_reasons": [],
        "dynamo_graph": None,
        "guards": [],
        "guards_text": None,
        "recompile_reasons": [],
        "symbols": [],
        "symbolic_guards": [],
        "aot_graphs": {},
        "post_grad_graphs": [],
        "output_codes": [],
        "cache": [],
        "phases": [],
        "metrics": None,
        "backward_metrics": None,
        "triton_kernel_info": [],
        "autotuning": [],
        "cudagraphs": {
            "summary": None,
            "partitions": [],
            "skips": [],
            "recordings": 0,
            "rerecordings": 0,
            "messages": [],
        },
        "perf_hints": [],
        "warnings": [],
        "collective_schedules": [],
        "bytecode": None,
        "resume_of": None,
        "tracing": None,
        "artifacts": {},
    }
