"""Where the GPU time goes: per-kernel device time from ``torch.profiler``, attributed to the
generated kernels (and extern calls) of the captured graphs — with the ATen ops each kernel
replaced — and, for the eager run, per ATen op.

A device kernel is attributed by walking up the CPU events that launched it: Inductor
wraps each Triton launch in a profiler range named after the kernel, so the first
ancestor named like a kernel of the document is its generated kernel; otherwise the
closest ``aten::`` op (an extern call such as ``aten::mm`` in compiled code, or the eager
op in eager code) names it; otherwise the device kernel's own name is kept. Kernels a CUDA
graph replays have no launch range of their own (the profiler hangs them on the compiled
graph's call range): they are labelled as replayed, and their share of the compiled device
time is ``cudagraph_share``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

import torch
from torch.profiler import ProfilerActivity, profile


CUDA_GRAPH_REPLAY = "CUDA graph replay: "
# The profiler range around a compiled graph's call. A kernel launched straight from it, with
# no kernel or op range of its own, was replayed by a CUDA graph (when torch recorded any).
COMPILED_GRAPH_CALL = "## Call CompiledFxGraph"


def _kind_of_label(label: str) -> str:
    if label.startswith(CUDA_GRAPH_REPLAY):
        return "cudagraph"
    return "extern" if label.startswith("extern ") else "other"


def _aten_name(target: str) -> str:
    """``torch.ops.aten.addmm.default`` -> ``aten::addmm`` (the profiler's spelling)."""
    parts = target.split(".")
    if len(parts) >= 4 and parts[:2] == ["torch", "ops"]:
        return f"{parts[2]}::{parts[3]}"
    return target


def _document_kernels(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {k["name"]: k for c in document["compiles"] for o in c["output_codes"]
            for k in o["kernels"] if k["kind"] != "extern"}


def _device_time_by_label(thunk: Callable[[], Any], calls: int,
                          label_of: Callable[[list[str], str], str]) -> dict[str, float]:
    """Total device microseconds per label over ``calls`` calls."""
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            thunk()
        torch.cuda.synchronize()
    totals: dict[str, float] = defaultdict(float)
    for event in prof.events():
        for kernel in getattr(event, "kernels", []) or []:
            ancestors, parent = [], event
            while parent is not None:
                ancestors.append(parent.name)
                parent = parent.cpu_parent
            totals[label_of(ancestors, kernel.name)] += kernel.duration
    return dict(totals)


def profile_kernels(eager: Callable[[], Any], compiled: Callable[[], Any],
                    document: dict[str, Any], calls: int = 20) -> dict[str, Any]:
    """Per call device time of each compiled kernel and of each eager ATen op."""
    known = _document_kernels(document)
    graphs_recorded = any(c["cudagraphs"]["recordings"] for c in document["compiles"])

    def compiled_label(ancestors: list[str], device_name: str) -> str:
        if graphs_recorded and ancestors[0].startswith(COMPILED_GRAPH_CALL):
            return f"{CUDA_GRAPH_REPLAY}{device_name}"
        for name in ancestors:
            if name in known:
                return name
        aten = next((n for n in ancestors if n.startswith("aten::")), None)
        return f"extern {aten}" if aten else device_name

    def eager_label(ancestors: list[str], device_name: str) -> str:
        aten = [n for n in ancestors if n.startswith("aten::")]
        return aten[-1] if aten else device_name  # the outermost op the user called

    compiled_us = _device_time_by_label(compiled, calls, compiled_label)
    eager_us = _device_time_by_label(eager, calls, eager_label)
    rows = []
    for label, total in sorted(compiled_us.items(), key=lambda item: -item[1]):
        kernel = known.get(label)
        replaced = sorted({_aten_name(t) for t in kernel["aten_ops"]}) if kernel else []
        rows.append({
            "label": label,
            "kind": kernel["kind"] if kernel else _kind_of_label(label),
            "per_call_us": total / calls,
            "aten_ops": replaced,
        })
    return {
        "calls": calls,
        "compiled": rows,
        "eager": [{"op": op, "per_call_us": total / calls}
                  for op, total in sorted(eager_us.items(), key=lambda item: -item[1])],
        "compiled_total_us": sum(compiled_us.values()) / calls,
        "cudagraph_share": (sum(t for label, t in compiled_us.items()
                                if label.startswith(CUDA_GRAPH_REPLAY)) / sum(compiled_us.values()))
        if compiled_us else None,
        "eager_total_us": sum(eager_us.values()) / calls,
    }
