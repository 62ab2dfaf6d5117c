"""What torch measured and looked up per compile: compilation metrics (forward and backward),
FX graph / AOTAutograd cache hits, misses and bypasses, the partitioner's memory budget."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events import Event
from ..parsers.cache_info import cache_details
from .payloads import json_or_none
from .registry import handles

if TYPE_CHECKING:
    from ..assemble import Assembler


# The config values torch dumps with a compile's metrics (``dynamo_config``,
# ``inductor_config``, ``functorch_config``: JSON of each whole module, dropped for their
# size) that say what was in force for that compile: those a finding's fix may name
# (findings/fixes.py names none other) and what ``dynamic=True`` sets. Kept as the record's
# ``config``, ``"module.name": value``.
KEPT_CONFIG = {
    "dynamo": (
        "assume_static_by_default",
        "automatic_dynamic_shapes",
        "capture_scalar_outputs",
        "capture_dynamic_output_shape_ops",
    ),
    "inductor": ("fallback_random",),
    "functorch": ("activation_memory_budget",),
}


def kept_config(metrics: dict[str, Any]) -> dict[str, Any]:
    kept = {}
    for module, names in KEPT_CONFIG.items():
        dumped = json_or_none(metrics.get(f"{module}_config"))
        if isinstance(dumped, dict):
            kept.update({f"{module}.{n}": dumped[n] for n in names if n in dumped})
    return kept


@handles("compilation_metrics", "bwd_compilation_metrics")
def _metrics(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    data = {
        k: v
        for k, v in (event.data or {}).items()
        if not (isinstance(v, str) and k.endswith("_config"))
    }
    if event.kind == "compilation_metrics":
        record["metrics"] = data
        record["config"] = kept_config(event.data or {})
        record["restart_reasons"] = list(data.get("restart_reasons") or [])
        if record["frame"] is None and data.get("co_name"):
            record["frame"] = {
                "function": data["co_name"],
                "file": data.get("co_filename"),
                "line": data.get("co_firstlineno"),
                "code": None,
            }
    else:
        record["backward_metrics"] = data


@handles(
    "fx_graph_cache_hit",
    "fx_graph_cache_miss",
    "fx_graph_cache_bypass",
    "aotautograd_cache_hit",
    "aotautograd_cache_miss",
    "aotautograd_cache_bypass",
)
def _cache(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    cache, _, result = event.kind.rpartition("_cache_")
    info = json_or_none(event.payload) or {}
    record["cache"].append(
        {
            "cache": "fx_graph" if cache == "fx_graph" else "aotautograd",
            "result": result,
            "key": info.get("key"),
            "reason": info.get("cache_bypass_reason") or info.get("reason"),
            **cache_details(info),
        }
    )


@handles("torch._functorch.config")
def _functorch_config(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    """The partitioner's settings of this compile: the activation memory budget in force."""
    config = json_or_none(event.payload)
    if record is not None and isinstance(config, dict):
        budget = config.get("activation_memory_budget")
        if isinstance(budget, (int, float)):
            assembler.memory_budgets[record["id"]] = float(budget)
