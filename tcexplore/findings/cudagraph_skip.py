"""CUDA graphs skipped (reduce-overhead / mode="max-autotune"): why, where, and how much
of the step runs outside CUDA graphs: by kernel time when a profile was taken, else by the
share of ops in non-cudagraphable partitions."""

from __future__ import annotations

from typing import Any

from . import fixes
from .make import compile_link, finding, locations, tab_link

FAST_PATH = "CUDA-graph fast path missed (pending backward)"


def _sections(data: dict[str, Any]) -> list[tuple[str, dict[str, Any], Any]]:
    out = [
        (
            str(c.get("id")),
            c.get("cudagraphs") or {},
            (c.get("metrics") or {}).get("cudagraph_skip_reason"),
        )
        for c in data.get("compiles") or []
    ]
    out.append(("run time", (data.get("runtime") or {}).get("cudagraphs") or {}, None))
    return out


def _outside_share(data: dict[str, Any], compile_id: str, info: dict[str, Any]) -> str | None:
    """The step's time (profile) or ops (partitions) this compile leaves outside CUDA graphs."""
    kernels = (data.get("profile") or {}).get("kernels") or []
    index = next(
        (i for i, c in enumerate(data.get("compiles") or []) if str(c.get("id")) == compile_id),
        None,
    )
    total = sum(k.get("time_us") or 0 for k in kernels)
    if total and index is not None:
        mine = sum(k.get("time_us") or 0 for k in kernels if k.get("compile") == index)
        return f"{100 * mine / total:.0f}% of the step's kernel time runs outside CUDA graphs"
    parts = info.get("partitions") or []
    nodes = sum(p.get("nodes") or 0 for p in parts)
    if nodes:
        outside = sum(p.get("nodes") or 0 for p in parts if not p.get("cudagraphable"))
        return f"{outside} of {nodes} ops ({100 * outside / nodes:.0f}%) run outside CUDA graphs"
    return None


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for compile_id, info, metric_reason in _sections(data):
        skips = info.get("skips") or []
        missed = info.get("fast_path_missed")
        reason = (
            skips[0].get("reason")
            if skips
            else metric_reason
            if isinstance(metric_reason, str)
            else None
        )
        if reason is None and not missed:
            continue
        share = _outside_share(data, compile_id, info) if reason else None
        title = (
            f"{FAST_PATH} ({compile_id})"
            if reason is None
            else f"CUDA graphs skipped ({compile_id}): {reason}" + (f"; {share}" if share else "")
        )
        evidence = [tab_link("cudagraphs", "CUDA graphs")]
        if compile_id != "run time":
            evidence.insert(0, compile_link(compile_id))
        out.append(
            finding(
                "cudagraph_skip",
                "warning",
                title,
                count=max(1, len(skips)),
                locations=locations([f for s in skips for f in (s.get("user_stack") or [])[-1:]]),
                evidence=evidence,
                advice=(
                    missed.get("fix")
                    if isinstance(missed, dict) and reason is None
                    else "the reason names the op or input that stops CUDA graphs: move it out of "
                    "the compiled region, or keep it on the GPU"
                ),
                reason=reason,
                fix=fixes.code_change("what stops CUDA graphs is in the code: a code change"),
            )
        )
    return out
