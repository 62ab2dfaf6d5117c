"""Where compile time goes: the top phases and the top user functions by tracing time;
advice on repeated identical graphs (regional compilation) and on a long compile that hit
no cache (why it did not, by the caches the program had, and mega-cache), with the figures
behind it. Identical graphs that are all compiles of one
code object (one frame id) come from a block compiled on its own already (a layer's
``.compile()``) and compiled again on a guard: regional compilation is what the program
does, so it is said, not advised."""

from __future__ import annotations

from typing import Any

from ..common.formatting import fmt_duration
from . import fixes
from .make import compile_link, finding, tab_link

TOP = 3
WARM_START_S = 5.0  # below this a cold start costs too little to advise on
REGIONAL = (
    "compile the repeated block once (regional compilation: torch.compile each "
    "layer/block module, e.g. `for layer in model.layers: layer.compile()`), so it "
    "is traced once and its compile reused"
)
SHIP = (
    "to start warm on another machine or in a fresh container, ship the caches with "
    "torch.compiler.save_cache_artifacts() / load_cache_artifacts() (mega-cache)"
)
# Why a long compile had no hit, by the caches the program had (capture.caches).
COLD = {
    "on": "a first compile in this cache directory: the program's next run in it "
    "(TORCHINDUCTOR_CACHE_DIR) starts warm; " + SHIP,
    "off": "the program runs with Inductor's caches off (force_disable_caches, or "
    "fx_graph_cache and enable_autograd_cache off): with them on (torch's default) its "
    "next run in the same cache directory starts warm; " + SHIP,
    "bypassed": "a cold capture (the caches bypassed on request); the program keeps its "
    "caches on, so its next run in the same cache directory starts warm; " + SHIP,
}

# A long compile that consulted no cache.
UNSERVED = (
    "no compile consulted a cache: Inductor's FX-graph and AOTAutograd caches serve the "
    "inductor backend only, so a next run compiles as long"
)


def compile_ms(c: dict[str, Any]) -> float:
    return sum(p.get("duration_ms") or 0 for p in c.get("phases") or [])


def _phase_totals(compiles: list[dict[str, Any]]) -> dict[str, float]:
    """Time per phase below each compile's outermost phases (their children), summed."""
    totals: dict[str, float] = {}
    for c in compiles:
        for top in c.get("phases") or []:
            for p in _below_wrappers(top.get("children") or [top]):
                if p.get("name") and p.get("duration_ms"):
                    totals[p["name"]] = totals.get(p["name"], 0) + p["duration_ms"]
    return totals


def _below_wrappers(phases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A compile attempt (``compile_attempt_N``) wraps the phases that did the work."""
    out = []
    for p in phases:
        wrapper = str(p.get("name") or "").startswith("compile_attempt") and p.get("children")
        out.extend(_below_wrappers(p["children"]) if wrapper else [p])
    return out


def _function_totals(compiles: list[dict[str, Any]]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for c in compiles:
        for f in (c.get("tracing") or {}).get("functions") or []:
            name = f"{f.get('function')} (line {f.get('line')})"
            totals[name] = totals.get(name, 0) + (f.get("cumtime_ms") or 0)
    return totals


def traced_functions(data: dict[str, Any]) -> dict[str, Any]:
    """Dynamo's tracing time per user function (file, first line, name), added up over the
    compiles, heaviest first: ``functions`` (``cum_ms`` with what it inlined, ``self_ms``
    without where torch's Dynamo profiler timed it, the compiles), and the ``sources`` of
    the figures (``dynamo_profiler``, ``chromium_events``)."""
    rows: dict[tuple[Any, Any, Any], dict[str, Any]] = {}
    sources: set[str] = set()
    for c in data.get("compiles") or []:
        tracing = c.get("tracing")
        if not isinstance(tracing, dict):
            continue
        sources.add(str(tracing.get("source")))
        for f in tracing.get("functions") or []:
            key = (f.get("file"), f.get("line"), f.get("function"))
            row = rows.setdefault(
                key,
                {
                    "file": f.get("file"),
                    "line": f.get("line"),
                    "function": f.get("function") or "?",
                    "cum_ms": 0.0,
                    "self_ms": None,
                    "compiles": [],
                },
            )
            row["cum_ms"] += f.get("cumtime_ms") or 0
            if isinstance(f.get("tottime_ms"), (int, float)):
                row["self_ms"] = (row["self_ms"] or 0) + f["tottime_ms"]
            if c.get("id") not in row["compiles"]:
                row["compiles"].append(c.get("id"))
    return {
        "functions": sorted(rows.values(), key=lambda r: -r["cum_ms"]),
        "sources": sorted(sources),
    }


def _repeats(compiles: list[dict[str, Any]]) -> list[list[str]]:
    """Compiles whose Dynamo graphs are the same ops in the same order (of >1 node)."""
    groups: dict[tuple, list[str]] = {}
    for c in compiles:
        nodes = (c.get("dynamo_graph") or {}).get("nodes") or []
        key = tuple((n.get("op"), str(n.get("target"))) for n in nodes)
        if len(key) > 3:
            groups.setdefault(key, []).append(str(c.get("id")))
    return [ids for ids in groups.values() if len(ids) > 2]


def _caches(data: dict[str, Any]) -> str:
    """How the program had its caches: "bypassed" by a cold capture, "off" in its own
    settings, else "on" (a log does not say: what torch defaults to)."""
    capture = data.get("capture") or {}
    if capture.get("bypass_caches"):
        return "bypassed"
    settings = capture.get("caches") or {}
    if (
        settings.get("force_disable_caches")
        or settings
        and not (settings.get("fx_graph_cache") or settings.get("autograd_cache"))
    ):
        return "off"
    return "on"


def _frame_id(compile_id: str) -> str:
    return compile_id.split("/")[0]


def _top(totals: dict[str, float]) -> str:
    rows = sorted(totals.items(), key=lambda kv: -kv[1])[:TOP]
    return ", ".join(f"{name} {fmt_duration(ms)}" for name, ms in rows)


def _slowest(compiles: list[dict[str, Any]]) -> str:
    return ", ".join(f"{c.get('id')} {fmt_duration(compile_ms(c))}" for c in compiles)


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    compiles = data.get("compiles") or []
    total_ms = sum(compile_ms(c) for c in compiles)
    if not total_ms:
        return []
    slowest = sorted(compiles, key=compile_ms, reverse=True)[:TOP]
    details = [f"top phases: {_top(_phase_totals(compiles))}"]
    functions = _function_totals(compiles)
    if functions:
        details.append(f"top functions by tracing time: {_top(functions)}")
    advice = []
    names = {str(c.get("id")): (c.get("frame") or {}).get("function") for c in compiles}
    for ids in _repeats(compiles):
        listed = f"{len(ids)} compiles ({', '.join(ids[:5])}{'…' if len(ids) > 5 else ''})"
        if len({_frame_id(cid) for cid in ids}) == 1:
            details.append(
                f"{listed} of {names[ids[0]] or '?'} made the same graph: that code "
                "is compiled on its own already (regional compilation) and was "
                "compiled again when a guard failed (the recompile finding says which)"
            )
        else:
            advice.append(f"{listed} made the same graph: {REGIONAL}")
    hit = any(e.get("result") == "hit" for c in compiles for e in c.get("cache") or [])
    long = total_ms / 1000 >= WARM_START_S and not hit
    # no compile consulted a cache: its backend is none Inductor's caches serve (eager,
    # aot_eager), so no next run starts warm from them
    consulted = any(c.get("cache") for c in compiles)
    caches = _caches(data) if long and consulted else None
    if caches is not None:
        advice.append(f"compiling took {fmt_duration(total_ms)} with no cache hit: {COLD[caches]}")
    elif long:
        details.append(UNSERVED)
    fix = (
        fixes.WARM_START
        if caches == "on"
        else fixes.code_change("regional compilation: a change to the code")
        if advice
        else None
    )
    return [
        finding(
            "compile_time",
            "info",
            f"Compile time {fmt_duration(total_ms)} over {len(compiles)} compiles; "
            f"slowest {_slowest(slowest)}",
            count=len(compiles),
            details=details,
            evidence=[compile_link(c.get("id")) for c in slowest] + [tab_link("timing", "Timing")],
            advice="; ".join(advice) or None,
            fix=fix,
        )
    ]
