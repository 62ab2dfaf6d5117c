"""The Overview's pipeline: Dynamo → AOTAutograd → Inductor → CUDA graphs, each stage with
its counts, the seconds it took over every compile, and whether it did anything here.
Decided here and stored as the document's ``pipeline``; the views draw it.

CUDA graphs are "graphed" only where torch recorded one (a ``Recording function=...``
message of its ``cudagraphs`` log): Inductor lists its graph partitions as cudagraphable
even where CUDA graphs are off ("partition includes all ops when cudagraphs is
disabled"), so partitions alone say nothing."""

from __future__ import annotations

from typing import Any

from ..common.formatting import plural

Data = dict[str, Any]

CUDAGRAPHS_FIELD = "compiles[].cudagraphs"  # capture.unavailable's name for a log's lack


def _metric(metrics: Any, key: str) -> float:
    value = metrics.get(key) if isinstance(metrics, dict) else None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def stage_seconds(data: Data) -> dict[str, float]:
    """Seconds each stage took, summed over compiles, the lazily compiled backward
    included: Dynamo is the frame's compile time less the backend's, AOTAutograd the
    backend's less Inductor's (backward: its whole compile less Inductor's)."""
    dynamo = aot = inductor = 0.0
    for record in data.get("compiles") or []:
        fw, bw = record.get("metrics"), record.get("backward_metrics")
        dynamo += _metric(fw, "entire_frame_compile_time_s") - _metric(fw, "backend_compile_time_s")
        aot += _metric(fw, "backend_compile_time_s") - _metric(fw, "inductor_compile_time_s")
        if isinstance(bw, dict):
            aot += max(
                0.0,
                _metric(bw, "backward_cumulative_compile_time_us") / 1e6
                - _metric(bw, "inductor_compile_time_s"),
            )
        inductor += _metric(fw, "inductor_compile_time_s") + _metric(bw, "inductor_compile_time_s")
    return {"dynamo": dynamo, "aot": aot, "inductor": inductor}


def _aot_counts(compiles: list[Data]) -> tuple[list[str], bool]:
    kinds: dict[str, int] = {}
    for record in compiles:
        for kind in record.get("aot_graphs") or {}:
            if kind != "joint":
                kinds[kind] = kinds.get(kind, 0) + 1
    counts = [plural(n, f"{kind} graph") for kind, n in kinds.items()]
    return counts or ["no AOT graphs"], any(record.get("aot_graphs") for record in compiles)


def _reason(metrics: Any) -> Any:
    return metrics.get("cudagraph_skip_reason") if isinstance(metrics, dict) else None


def _cudagraphs(data: Data) -> tuple[list[str], bool]:
    """The CUDA-graph stage's counts, and whether torch graphed anything."""
    unavailable = {
        u.get("field")
        for u in (data.get("capture") or {}).get("unavailable") or []
        if isinstance(u, dict)
    }
    if CUDAGRAPHS_FIELD in unavailable:
        return ["not recorded in this document"], False
    infos = [
        (record.get("cudagraphs") or {}, record.get("metrics"))
        for record in data.get("compiles") or []
    ]
    graphed = sum(1 for info, _ in infos if info.get("recordings"))
    skipped = sum(
        1 for info, metrics in infos if info.get("skips") or isinstance(_reason(metrics), str)
    )
    at_run_time = ((data.get("runtime") or {}).get("cudagraphs") or {}).get("recordings") or 0
    if not graphed and not skipped and not at_run_time:
        return ["no CUDA graph recorded"], False
    counts = [plural(graphed, "graphed compile"), f"{skipped} skipped"]
    if at_run_time:
        counts.append(f"{plural(at_run_time, 'recording')} at run time, of no one compile")
    return counts, bool(graphed or at_run_time)


def pipeline(data: Data) -> list[Data]:
    """``[{name, counts, seconds, active}]`` in the order torch runs the stages; ``seconds``
    is None where the stage took no time this document records."""
    summary = data.get("summary") or {}
    compiles = data.get("compiles") or []

    def n(key: str) -> int:
        value = summary.get(key)
        return value if isinstance(value, int) else 0

    seconds = stage_seconds(data)
    aot_counts, aot_active = _aot_counts(compiles)
    cuda_counts, cuda_active = _cudagraphs(data)

    def stage(name: str, counts: list[str], active: bool, took: float | None = None) -> Data:
        return {
            "name": name,
            "counts": counts,
            "active": active,
            "seconds": took if took and took > 0 else None,
        }

    return [
        stage(
            "Dynamo",
            [
                plural(n("graphs"), "graph"),
                plural(n("graph_breaks"), "graph break"),
                plural(n("recompiles"), "recompile"),
                plural(n("guards"), "guard"),
            ],
            n("graphs") > 0,
            seconds["dynamo"],
        ),
        stage("AOTAutograd", aot_counts, aot_active, seconds["aot"]),
        stage(
            "Inductor",
            [
                plural(n("output_codes"), "output code"),
                plural(n("kernels"), "kernel"),
                plural(n("unmapped_nodes"), "unmapped node"),
            ],
            n("output_codes") > 0,
            seconds["inductor"],
        ),
        stage("CUDA graphs", cuda_counts, cuda_active),
    ]
