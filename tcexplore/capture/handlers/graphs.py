"""The graphs and Inductor's code of a compile: Dynamo's graph, the AOT and post-grad graphs,
output code with its provenance mapping, Triton kernel info, collective schedules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events import Event
from ..parsers.fx_text import parse_graph
from ..parsers.output_code import parse_output_code
from .payloads import bounded_text, json_or_none, left_out_text
from .registry import handles

if TYPE_CHECKING:
    from ..assemble import Assembler


def _whole(assembler: Assembler, record: dict[str, Any], payload: str | None) -> bool:
    """Whether the document keeps this compile's graphs and code (a big log's bound)."""
    return assembler.detail is None or assembler.detail.keeps(record["id"], payload)


def _graph(assembler: Assembler, record: dict[str, Any], payload: str | None) -> dict[str, Any]:
    if not _whole(assembler, record, payload):
        return {**left_out_text(payload), "nodes": [], "nodes_truncated": True}
    return {**bounded_text(payload), **parse_graph(payload or "")}


@handles("dynamo_output_graph")
def _dynamo_graph(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    record["dynamo_graph"] = _graph(assembler, record, event.payload)


@handles("aot_forward_graph", "aot_backward_graph", "aot_inference_graph", "aot_joint_graph")
def _aot_graph(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    part = event.kind[len("aot_") : -len("_graph")]
    record["aot_graphs"][part] = _graph(assembler, record, event.payload)


@handles("inductor_post_grad_graph")
def _post_grad_graph(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    record["post_grad_graphs"].append(_graph(assembler, record, event.payload))


@handles("inductor_output_code")
def _output_code(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    parsed = parse_output_code(event.payload or "")
    data = event.data or {}
    whole = _whole(assembler, record, event.payload)
    record["output_codes"].append(
        {
            **(bounded_text(event.payload) if whole else left_out_text(event.payload)),
            "aot_id": parsed["aot_id"],
            "kind": parsed["kind"],
            "path": data.get("filename"),
            "post_grad_graph": len(record["post_grad_graphs"]) - 1,
            "kernels": parsed["kernels"],
            "subgraph_calls": parsed["subgraph_calls"],
            "checks": parsed["checks"],
            "provenance": None,
        }
    )


@handles("inductor_provenance_tracking_node_mappings")
def _provenance(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    mapping = json_or_none(event.payload)
    if record["output_codes"] and isinstance(mapping, dict):
        record["output_codes"][-1]["provenance"] = mapping


@handles("triton_kernel_info")
def _triton_kernel_info(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    info = json_or_none(event.payload)
    if info is not None:
        record["triton_kernel_info"].append(info)


@handles("inductor_collective_schedule")
def _collective_schedule(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    ops = json_or_none(event.payload)
    if isinstance(ops, list):
        record["collective_schedules"].append([str(op) for op in ops])
