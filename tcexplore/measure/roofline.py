"""Each kernel held against the machine's roofs, and what a step measured (its verdict is
findings/step_verdict.py's).

Rules (documented in the README's "Why is it slow?"):

* **Bytes** a kernel moves: the tensors it was handed at its first call, each read or
  written once (an ``in_out_ptr`` parameter twice). Caches can make the real traffic lower
  and re-reads make it higher; for pointwise and reduction kernels it is the traffic they
  cannot avoid.
* **FLOPs**: an extern call's are torch's estimate for its ATen op (matmul, convolution,
  attention); a generated kernel counts one operation per element of the largest tensor
  each fused node reads or writes (a transcendental counts as one).
* **Bound**: ``compute``-bound when a kernel's arithmetic intensity (FLOPs per byte)
  reaches the ridge point (peak FLOP/s ÷ bandwidth), ``memory``-bound below it: the
  classic roofline reading. ``efficiency`` says how close it gets: the time the roofs
  allow (``max(bytes / bandwidth, flops / peak)``) over its measured time. A kernel whose
  launches are short (under ``LATENCY_US``) and far from the roofs (efficiency under
  ``1 / LATENCY_FACTOR``) is ``latency``-bound instead: fixed costs (launch, too little
  parallel work) dominate it. A long kernel far from the roofs keeps its class; its low
  efficiency is the finding (work the per-element count does not see, such as
  transcendentals, or a machine busy with something else).
* **Step figures**: a call's wall time split into kernel time and the rest, kernel time by
  class, launches per call, and the figures the step's verdict reads (``basis``: on a GPU
  the back-to-back loop's). The verdict on them is findings/step_verdict.py's.
"""

from __future__ import annotations

import re
from typing import Any

LATENCY_FACTOR = 10.0
LATENCY_US = 50.0
_DIM = re.compile(r"^\d+$")


def numel(shape: Any) -> int | None:
    """Elements of a shape from the document (``["8", "4"]``); None when symbolic."""
    if not isinstance(shape, list):
        return None
    total = 1
    for dim in shape:
        if not _DIM.match(str(dim)):
            return None
        total *= int(dim)
    return total


def node_elements(node: dict[str, Any], nodes: dict[str, dict[str, Any]]) -> int | None:
    """Elements of the largest tensor a node reads or writes."""
    sizes = [numel((node.get("meta") or {}).get("shape"))]
    sizes += [
        numel((nodes.get(a, {}).get("meta") or {}).get("shape")) for a in node.get("args", [])
    ]
    known = [s for s in sizes if s is not None]
    return max(known) if known else None


def post_grad_nodes(
    document: dict[str, Any], compile_index: int, output_index: int
) -> dict[str, dict[str, Any]]:
    """The post-grad graph nodes of one output code, by name."""
    record = document["compiles"][compile_index]
    output = record["output_codes"][output_index]
    graph_index = output.get("post_grad_graph")
    graphs = record.get("post_grad_graphs", [])
    if not isinstance(graph_index, int) or not 0 <= graph_index < len(graphs):
        return {}
    return {n["name"]: n for n in graphs[graph_index].get("nodes", [])}


def document_kernel(document: dict[str, Any], row: dict[str, Any]) -> dict[str, Any] | None:
    """The document's kernel a profile row measured: its own entry (a name repeats where an
    extern call is made several times), by name for rows written before ``kernel``."""
    if row.get("compile") is None:
        return None
    kernels = document["compiles"][row["compile"]]["output_codes"][row["output"]]["kernels"]
    if "kernel" in row:
        index = row["kernel"]
        return kernels[index] if isinstance(index, int) and 0 <= index < len(kernels) else None
    return next((k for k in kernels if k["name"] == row["name"]), None)


def launch_nodes(kernel: dict[str, Any]) -> list[list[str]]:
    """The post-grad nodes of each launch of a document's kernel (its ``launch_sites``;
    the whole kernel's in a document written before them)."""
    sites = kernel.get("launch_sites") or []
    return [s["post_grad_nodes"] for s in sites] or [kernel.get("post_grad_nodes", [])]


def _fused_nodes(
    document: dict[str, Any], row: dict[str, Any]
) -> tuple[list[dict[str, Any]], dict]:
    kernel = document_kernel(document, row)
    if kernel is None:
        return [], {}
    nodes = post_grad_nodes(document, row["compile"], row["output"])
    return [nodes[n] for n in kernel.get("post_grad_nodes", []) if n in nodes], nodes


def kernel_flops(document: dict[str, Any], row: dict[str, Any]) -> float | None:
    """FLOPs of one launch: a launch computes its own nodes (the mean over the kernel's
    launches, which run equally often)."""
    kernel = document_kernel(document, row)
    if kernel is None:
        return None
    nodes = post_grad_nodes(document, row["compile"], row["output"])
    per_launch = []
    for names in launch_nodes(kernel):
        counts = [node_elements(nodes[n], nodes) for n in names if n in nodes]
        if not counts or any(c is None for c in counts):
            return None
        per_launch.append(sum(c for c in counts if c is not None))
    return float(sum(per_launch)) / len(per_launch)


def kernel_dtype(document: dict[str, Any], row: dict[str, Any]) -> str | None:
    fused, _ = _fused_nodes(document, row)
    return next(
        (
            n["meta"]["dtype"]
            for n in fused
            if isinstance(n.get("meta"), dict) and n["meta"].get("dtype")
        ),
        None,
    )


def _roof_terms(
    row: dict[str, Any], peaks: dict[str, Any]
) -> tuple[float, float, float | None] | None:
    """(seconds per launch, memory roof s, compute roof s) of one launch: the time its bytes
    take at the bandwidth roof and its FLOPs at its dtype's compute roof (None without one);
    None when bytes, time or bandwidth are unknown."""
    time_s = (row.get("mean_us") or 0) / 1e6
    bandwidth = peaks.get("bandwidth_gbps") or 0
    if not time_s or not bandwidth or row.get("bytes") is None:
        return None
    peak = (peaks.get("gflops") or {}).get(row.get("dtype") or "float32")
    flops = row.get("flops") or 0.0
    return time_s, row["bytes"] / (bandwidth * 1e9), flops / (peak * 1e9) if peak else None


def efficiency(row: dict[str, Any], peaks: dict[str, Any]) -> float | None:
    """The time the roofs allow one launch over its measured time (1: on a roof)."""
    terms = _roof_terms(row, peaks)
    if terms is None:
        return None
    time_s, memory_s, compute_s = terms
    return max(memory_s, compute_s or 0.0) / time_s


def classify(row: dict[str, Any], peaks: dict[str, Any]) -> str | None:
    """``memory`` / ``compute`` / ``latency``, or None when bytes or time are unknown."""
    terms = _roof_terms(row, peaks)
    if terms is None:
        return None
    time_s, memory_s, compute_s = terms
    if max(memory_s, compute_s or 0.0) / time_s * LATENCY_FACTOR < 1 and time_s * 1e6 < LATENCY_US:
        return "latency"
    return "compute" if compute_s is not None and compute_s >= memory_s else "memory"


def annotate_kernels(
    document: dict[str, Any], rows: list[dict[str, Any]], peaks: dict[str, Any], wall_us: float
) -> None:
    """Fill in FLOPs, dtype, achieved rates, share of the step and bound, in place.
    ``bytes`` and ``flops`` are per launch, ``time_us`` per call of the step."""
    for row in rows:
        known = row.get("compile") is not None
        if row["kind"] != "extern" and row.get("flops") is None and known:
            row["flops"] = kernel_flops(document, row)
        row["dtype"] = kernel_dtype(document, row) if known else None
        row["mean_us"] = row["time_us"] / row["calls"] if row["calls"] else None
        launch_s = (row["mean_us"] or 0) / 1e6
        row["achieved_gbps"] = (
            row["bytes"] / launch_s / 1e9 if row.get("bytes") is not None and launch_s else None
        )
        row["achieved_gflops"] = (
            row["flops"] / launch_s / 1e9 if row.get("flops") and launch_s else None
        )
        row["share"] = row["time_us"] / wall_us if wall_us else None
        for launch in row.get("launch_sites") or []:
            launch["share"] = launch["time_us"] / wall_us if wall_us else None
        row["efficiency"] = efficiency(row, peaks)
        row["bound"] = classify(row, peaks)


def beats_peaks(rows: list[dict[str, Any]], peaks: dict[str, Any], margin: float = 1.1) -> bool:
    """Whether a kernel went faster than a roof allows: the peaks are stale."""
    for row in rows:
        peak = (peaks.get("gflops") or {}).get(row.get("dtype") or "float32")
        if (row.get("achieved_gbps") or 0) > margin * peaks["bandwidth_gbps"] or (
            peak and (row.get("achieved_gflops") or 0) > margin * peak
        ):
            return True
    return False


def launches_per_call(rows: list[dict[str, Any]]) -> float:
    """Kernel launches per call of the step (CUDA-graph replays have no launch count)."""
    return sum(r["calls"] or 0 for r in rows)


def step_figures(
    rows: list[dict[str, Any]], wall_us: float, loop: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What a step measured over ``wall_us`` per call: kernel and overhead time, the time
    of each class of kernel, launches per call, and the figures its verdict reads
    (``basis``; findings/step_verdict.py judges them): the wall and kernel time, or a GPU's
    back-to-back figures ``loop`` (measure/loop.py, with ``other_us``, the device time of
    kernels no row holds)."""
    kernel_us = sum(r["time_us"] for r in rows)
    by_bound: dict[str, float] = {"memory": 0.0, "compute": 0.0, "latency": 0.0, "unknown": 0.0}
    for r in rows:
        by_bound[r.get("bound") or "unknown"] += r["time_us"]
    overhead_us = max(0.0, wall_us - kernel_us)
    if loop is None:
        basis = {
            "rule": "share",
            "wall_us": wall_us,
            "kernel_us": kernel_us,
            "latency_us": by_bound["latency"],
        }
    else:
        basis = {
            "rule": "loop",
            **loop,
            "device_us": kernel_us + (loop.get("other_us") or 0.0),
            "latency_us": by_bound["latency"],
        }
    return {
        "wall_us": wall_us,
        "kernel_us": kernel_us,
        "overhead_us": overhead_us,
        "overhead_share": overhead_us / wall_us if wall_us else 0.0,
        "bound_us": by_bound,
        "basis": basis,
        "launches": launches_per_call(rows),
    }
