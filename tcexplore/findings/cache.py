"""Caches as the program used them: a compile served from the FX-graph or AOTAutograd cache
(a warm start: its time beside that of the compile that wrote the entry, and what a hit
could not show, stored per compile as ``cache_hit``), and caches torch bypassed, with its
reason. A miss alone is a first compile, and a cold capture bypassed the caches on
request: neither is a finding. A hit on an entry that an earlier exploration of this
process wrote is tcexplore's doing, said on its compile only."""

from __future__ import annotations

from typing import Any

from ..common.formatting import fmt_duration
from .compile_time import compile_ms
from .make import compile_link, finding

Data = dict[str, Any]

NAMES = {"fx_graph": "FX graph", "aotautograd": "AOTAutograd"}
# What a compile served from the caches does not show, by key (torch loads the compiled
# code instead of lowering the graph and generating it).
LACKS = {
    "codegen": "Inductor's lowering and code generation (the code was loaded), so its "
    "compile time has no such phases",
    "backward_compile": "a compile of its own for the backward (loaded with the forward)",
    "provenance": "which post-grad nodes each kernel computes: the entry was written "
    "without provenance tracking (a cold capture, tcexplore run --bypass-caches, "
    "compiles it afresh)",
}
EARLIER_EXPLORATION = (
    "it hit entries an earlier exploration in this process wrote: tcexplore compiled this "
    "code again where the program would have reused its compiled code, so this is not a "
    "warm start of the program"
)


def _count(n: int, result: str) -> str:
    return (
        f"{n} {result}"
        if n == 1
        else f"{n} {result}es"
        if result.endswith("s")
        else f"{n} {result}s"
    )


def _hits(record: Data) -> list[Data]:
    return [e for e in record.get("cache") or [] if e.get("result") == "hit"]


def _lacks(record: Data, hits: list[Data]) -> list[str]:
    caches = {e.get("cache") for e in hits}
    outputs = record.get("output_codes") or []
    lacks = ["codegen"] if "fx_graph" in caches else []
    backward = any(o.get("kind") == "backward" for o in outputs)
    if "aotautograd" in caches and backward and not record.get("backward_metrics"):
        lacks.append("backward_compile")
    if any(o.get("provenance") is None for o in outputs):
        lacks.append("provenance")
    return lacks


def _cold(compiles: list[Data], record: Data, hits: list[Data]) -> Data | None:
    """The compile of this document before ``record`` that missed a key it hit."""
    keys = {e.get("key") for e in hits if e.get("key")}
    for other in compiles:
        if other is record:
            return None
        if any(e.get("result") == "miss" and e.get("key") in keys for e in other["cache"]):
            return other
    return None


def _said_hits(hits: list[Data]) -> str:
    counts: dict[str, int] = {}
    for e in hits:
        counts[e.get("cache")] = counts.get(e.get("cache"), 0) + 1
    return ", ".join(
        f"{NAMES.get(c, c)} hit" + (f" ×{n}" if n > 1 else "") for c, n in counts.items()
    )


def decide(data: Data) -> None:
    """Each compile that hit a cache holds ``cache_hit``: ``note`` (what served it, its
    time, the compile that wrote the entry and what a hit does not show), ``lacks``
    (LACKS' keys) and ``cold`` (that compile's id, or None)."""
    compiles = [c for c in data.get("compiles") or [] if isinstance(c, dict)]
    for record in compiles:
        record.pop("cache_hit", None)
        hits = _hits(record)
        if not hits:
            continue
        lacks = _lacks(record, hits)
        cold = _cold(compiles, record, hits)
        note = f"Served from the caches ({_said_hits(hits)}) in {fmt_duration(compile_ms(record))}"
        if cold is not None:
            note += f"; compile {cold.get('id')}, which wrote the entry, took "
            note += fmt_duration(compile_ms(cold))
        if all(e.get("earlier_exploration") for e in hits):
            note += f": {EARLIER_EXPLORATION}"
        note += (
            ". A hit does not show " + "; ".join(LACKS[k] for k in lacks) + "." if lacks else "."
        )
        record["cache_hit"] = {
            "note": note,
            "lacks": lacks,
            "cold": cold.get("id") if cold else None,
        }


def _autotune_states(data: Data) -> dict[str, int]:
    states: dict[str, int] = {}
    for c in data.get("compiles") or []:
        for o in c.get("output_codes") or []:
            for k in o.get("kernels") or []:
                info = k.get("autotune")
                state = info.get("autotune_cache_state") if isinstance(info, dict) else None
                if state:
                    states[state] = states.get(state, 0) + 1
    return states


def _warm_title(data: Data, warm: list[Data]) -> str:
    by_id = {c.get("id"): c for c in data.get("compiles") or []}
    if len(warm) == 1:
        (record,) = warm
        function = (record.get("frame") or {}).get("function") or "?"
        cold = by_id.get((record.get("cache_hit") or {}).get("cold"))
        took = fmt_duration(compile_ms(record))
        was = f" (compile {cold.get('id')}: {fmt_duration(compile_ms(cold))})" if cold else ""
        return f"Warm start: compile {record.get('id')} ({function}) hit the caches, {took}{was}"
    colds = [by_id.get((r.get("cache_hit") or {}).get("cold")) for r in warm]
    took = fmt_duration(sum(compile_ms(r) for r in warm))
    was = (
        f" (the compiles that wrote the entries: {fmt_duration(sum(compile_ms(c) for c in colds))})"
        if all(colds)
        else ""
    )
    return f"Warm start: {len(warm)} compiles hit the caches, {took} in all{was}"


def find(data: Data) -> list[Data]:
    compiles = data.get("compiles") or []
    warm = [
        c
        for c in compiles
        if isinstance(c.get("cache_hit"), dict)
        and not all(e.get("earlier_exploration") for e in _hits(c))
    ]
    bypassed = [
        (c, e) for c in compiles for e in c.get("cache") or [] if e.get("result") == "bypass"
    ]
    if not warm and not bypassed:
        return []
    details = [f"compile {c.get('id')}: {c['cache_hit']['note']}" for c in warm]
    details += [
        f"{NAMES.get(e.get('cache'), e.get('cache'))} bypassed in compile {c.get('id')}: "
        f"{e.get('reason') or 'no reason given'}"
        for c, e in bypassed
    ]
    states = _autotune_states(data)
    if states:
        details.append(
            "Triton autotune: " + ", ".join(f"{s} ×{n}" for s, n in sorted(states.items()))
        )
    if warm:
        title = _warm_title(data, warm)
    else:
        by_cache: dict[str, int] = {}
        for _, e in bypassed:
            by_cache[e.get("cache")] = by_cache.get(e.get("cache"), 0) + 1
        title = "Caches bypassed by torch: " + "; ".join(
            f"{NAMES.get(c, c)} {_count(n, 'compile')}" for c, n in by_cache.items()
        )
    ids = [c.get("id") for c in warm] + [c.get("id") for c, _ in bypassed]
    ids += [c["cache_hit"]["cold"] for c in warm if c["cache_hit"].get("cold")]
    return [
        finding(
            "cache",
            "warning" if bypassed else "info",
            title,
            count=len(warm),
            evidence=[compile_link(cid) for cid in list(dict.fromkeys(ids))[:20]],
            details=details,
            advice=(
                "a bypassed cache recompiles every run: its reason says what to change"
                if bypassed
                else None
            ),
        )
    ]
