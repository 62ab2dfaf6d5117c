"""What a compile's records say of autotuning: per Triton kernel its autotune cache state and
configs (``triton_kernel_info``), and the choices torch attached to compile phases."""

from __future__ import annotations

from typing import Any

from .handlers.payloads import json_or_none


def attach_triton_info(record: dict[str, Any]) -> None:
    """``triton_kernel_info``: per kernel, the autotune cache state and the config(s) tried."""
    info: dict[str, Any] = {}
    for item in record["triton_kernel_info"]:
        if isinstance(item, dict):
            info.update(item)
    for output in record["output_codes"]:
        for kernel in output["kernels"]:
            if kernel["kind"] == "triton":
                kernel["autotune"] = info.get(kernel["name"])


def autotune_choices(phases: list[dict[str, Any]]) -> list[Any]:
    """Autotuning choices torch attached to compile phases (``autotune_choices_stats``)."""
    found = []
    stack = list(phases)
    while stack:
        phase = stack.pop(0)
        stats = phase["data"].get("autotune_choices_stats")
        if stats is not None:
            found.append(
                {
                    "phase": phase["name"],
                    "stats": json_or_none(stats) if isinstance(stats, str) else stats,
                }
            )
        stack.extend(phase["children"])
    return found
