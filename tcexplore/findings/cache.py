"""Caches: whether they were on, and per cache (FX graph, AOTAutograd, Triton autotune)
the hits, misses and bypasses torch reported, with the time hits saved and why any was
bypassed."""

from __future__ import annotations

from typing import Any

from ..common.formatting import fmt_duration
from .make import compile_link, finding

NAMES = {"fx_graph": "FX graph", "aotautograd": "AOTAutograd"}
BYPASSED_BY_CAPTURE = (
    "caches were bypassed by tcexplore for this capture, so every compile "
    "ran in full (a hit replays code without codegen and its provenance)"
)
USE_CACHES = (
    "tcexplore run --use-caches, or capture(bypass_caches=False) / "
    "explore(..., bypass_caches=False), keeps them on and records hits"
)


def _count(n: int, result: str) -> str:
    return (
        f"{n} {result}"
        if n == 1
        else f"{n} {result}es"
        if result.endswith("s")
        else f"{n} {result}s"
    )


def _autotune_states(data: dict[str, Any]) -> dict[str, int]:
    states: dict[str, int] = {}
    for c in data.get("compiles") or []:
        for o in c.get("output_codes") or []:
            for k in o.get("kernels") or []:
                info = k.get("autotune")
                state = info.get("autotune_cache_state") if isinstance(info, dict) else None
                if state:
                    states[state] = states.get(state, 0) + 1
    return states


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    compiles = data.get("compiles") or []
    if (data.get("capture") or {}).get("bypass_caches"):
        return (
            [
                finding(
                    "cache",
                    "info",
                    "Caches off: " + BYPASSED_BY_CAPTURE,
                    count=0,
                    advice=USE_CACHES,
                )
            ]
            if compiles
            else []
        )
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for c in compiles:
        for entry in c.get("cache") or []:
            rows.setdefault((entry.get("cache"), entry.get("result")), []).append(
                {**entry, "compile": c.get("id")}
            )
    if not rows:
        return []
    said, details, evidence = [], [], []
    for cache, name in NAMES.items():
        counts = [
            _count(len(rows[(cache, r)]), r)
            for r in ("hit", "miss", "bypass")
            if rows.get((cache, r))
        ]
        if counts:
            said.append(f"{name} {', '.join(counts)}")
        saved = sum(e.get("time_saved_ms") or 0 for e in rows.get((cache, "hit"), []))
        if saved:
            details.append(f"{name} hits saved {fmt_duration(saved)} of compile time")
        for e in rows.get((cache, "bypass"), []):
            details.append(
                f"{name} bypassed in compile {e['compile']}: {e.get('reason') or 'no reason given'}"
            )
        for e in rows.get((cache, "miss"), []):
            if e.get("key_components"):
                kept = (
                    f"{len(e['key_components'])} of {e['components_truncated']}"
                    if e.get("components_truncated")
                    else str(len(e["key_components"]))
                )
                details.append(
                    f"{name} miss in compile {e['compile']}: its key's {kept} "
                    "components are kept (tcexplore diff names those that changed)"
                )
    for state, n in sorted(_autotune_states(data).items()):
        said.append(f"Triton autotune {state} ×{n}")
    ids = list(dict.fromkeys(e["compile"] for entries in rows.values() for e in entries))
    evidence = [compile_link(cid) for cid in ids[:20]]
    bypassed = any(r == "bypass" for _, r in rows)
    hits = sum(len(v) for (_, r), v in rows.items() if r == "hit")
    return [
        finding(
            "cache",
            "warning" if bypassed else "info",
            "Caches on: " + "; ".join(said),
            count=hits,
            evidence=evidence,
            details=details,
            advice=(
                "a bypassed cache recompiles every run: its reason says what to change"
                if bypassed
                else None
            ),
        )
    ]
