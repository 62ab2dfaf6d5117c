"""Memory decided (as measure/memory.py measures it and render/memory.py draws it): the memory
finding, where the memory goes, and the totals it is built from.

The finding (#26's shape) weighs the measured peaks against eager's and the activations saved
for backward, with their lines. Static figures come from ``compiles[].memory`` (what the
partitioner saves, what it recomputes); measured ones from the ``memory`` section
``explore(..., memory=True)`` adds. No torch import: reading a saved document needs none."""

from __future__ import annotations

from typing import Any

from ..common.formatting import format_bytes, plural
from . import fixes
from .make import finding, source_link, tab_link
from .user_terms import user_function

WORTH_A_WARNING = 0.10  # compiled peak this much over eager's
# Below this much saved activation (and without a compiled peak over eager's), checkpointing
# would save too little to be worth advising.
WORTH_ADVICE_BYTES = 16 * 2**20


def saved_activations(document: dict[str, Any]) -> dict[str, Any]:
    """Saved activation bytes over every compile, and their user lines (each with its bytes
    and saved nodes over every compile), most bytes first; the forward nodes recomputed in
    backward and the activation memory budgets in force. ``symbolic`` counts the activations
    saved whose size is symbolic (dynamic shapes): saved, but in no byte count. Stored in the
    document as ``saved_activations`` when it is built (findings.decide); the views draw
    that."""
    total, symbolic, lines, recomputed, budgets = 0, 0, {}, 0, set()
    for record in document.get("compiles") or []:
        memory = record.get("memory") or {}
        saved = memory.get("saved_for_backward")
        if not saved:
            continue
        unsized = _symbolic_activations(saved["tensors"])
        total += saved["bytes_by_kind"]["activation"]
        symbolic += len(unsized)
        recomputed += len(memory.get("recomputed") or [])
        if memory.get("activation_memory_budget") is not None:
            budgets.add(memory["activation_memory_budget"])
        for line in saved["lines"]:
            key = (line["file"], line["line"])
            entry = lines.setdefault(
                key,
                {
                    "file": line["file"],
                    "line": line["line"],
                    "function": line["function"],
                    "code": line.get("code"),
                    "bytes": 0,
                    "symbolic": 0,
                    "nodes": [],
                },
            )
            nodes = line.get("nodes") or []
            entry["bytes"] += line["bytes"]
            entry["symbolic"] += sum(1 for node in nodes if node in unsized)
            entry["nodes"] += nodes
    ordered = sorted(lines.values(), key=lambda e: (-e["bytes"], -e["symbolic"]))
    return {
        "bytes": total,
        "symbolic": symbolic,
        "lines": ordered,
        "recomputed": recomputed,
        "budgets": sorted(budgets),
    }


def _symbolic_activations(tensors: list[dict[str, Any]]) -> set[str]:
    """The saved activations (a node named for each storage) whose size is symbolic: no
    tensor of their storage has a size in bytes."""
    sized = {t["storage"] for t in tensors if t["bytes"] is not None}
    named: dict[str, str] = {}
    for t in tensors:
        if t["kind"] == "activation" and t["storage"] not in sized:
            named.setdefault(t["storage"], t["node"])
    return set(named.values())


def saved_words(saved: dict[str, Any]) -> str:
    """What was saved, in bytes where torch knew them: "1.41 kB of activations", "1.41 kB of
    activations and 2 of symbolic size", "2 activations of symbolic size" (``saved``: a
    line, or the whole of saved_activations)."""
    symbolic = saved.get("symbolic") or 0
    if not symbolic:
        return f"{format_bytes(saved['bytes'])} of activations"
    if saved["bytes"]:
        return f"{format_bytes(saved['bytes'])} of activations and {symbolic} of symbolic size"
    return f"{plural(symbolic, 'activation')} of symbolic size"


def saved_label(saved: dict[str, Any]) -> str:
    """Saved activations in few words: "1.41 kB", "1.41 kB + 2 of symbolic size", "2 of
    symbolic size"."""
    symbolic = saved.get("symbolic") or 0
    if not symbolic:
        return format_bytes(saved["bytes"])
    if saved["bytes"]:
        return f"{format_bytes(saved['bytes'])} + {symbolic} of symbolic size"
    return f"{symbolic} of symbolic size"


def _line_span(lines: list[dict[str, Any]]) -> str:
    numbers = sorted({line["line"] for line in lines})
    if not numbers:
        return ""
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    if numbers[-1] - numbers[0] == len(numbers) - 1:
        return f"lines {numbers[0]}-{numbers[-1]}"
    return "lines " + ", ".join(map(str, numbers))


def memory_finding(document: dict[str, Any]) -> dict[str, Any] | None:
    """``{kind, severity, title, count, locations, evidence, advice}``, or None when the
    document says nothing about memory (no backward graph, no measured peaks)."""
    saved = saved_activations(document)
    peaks = (document.get("memory") or {}).get("peak_bytes")
    if not saved["lines"] and not peaks:
        return None
    top = saved["lines"][:4]
    covered = {
        "bytes": sum(line["bytes"] for line in top),
        "symbolic": sum(line["symbolic"] for line in top),
    }
    severity, title = "info", f"{saved_words(saved)} saved for backward"
    if peaks and peaks["eager"] is None:  # `tcexplore run --memory`: the script as it ran
        title = f"the run peaked at {format_bytes(peaks['compiled']['peak_bytes'])}"
    elif peaks:
        eager = peaks["eager"]["above_before_bytes"]
        compiled = peaks["compiled"]["above_before_bytes"]
        change = f" ({(compiled - eager) / eager:+.0%})" if eager else ""
        title = f"compiled peaks at {format_bytes(compiled)} vs eager {format_bytes(eager)}{change}"
        if eager and compiled > eager * (1 + WORTH_A_WARNING):
            severity = "warning"
    evidence = []
    if top:
        evidence.append(
            f"{saved_words(covered)} saved at {_line_span(top)} ({saved_label(saved)} in all)"
        )
    if saved["symbolic"]:
        verb = "has" if saved["symbolic"] == 1 else "have"
        evidence.append(
            f"{plural(saved['symbolic'], 'saved activation')} {verb} a symbolic size (dynamic "
            "shapes): their bytes are known only at run time"
        )
    if saved["recomputed"]:
        evidence.append(f"{saved['recomputed']} forward nodes recomputed in backward")
    if saved["budgets"]:
        evidence.append(
            "activation_memory_budget in force: " + ", ".join(f"{b:g}" for b in saved["budgets"])
        )
    if peaks:
        evidence.append(f"peaks measured with {peaks['how'].split(':')[0]}")
    advice = fix = None
    if top and (severity == "warning" or saved["bytes"] >= WORTH_ADVICE_BYTES):
        functions = sorted({user_function(line["function"]) for line in top})
        advice = (
            f"consider activation checkpointing (torch.utils.checkpoint) around "
            f"{', '.join(functions)} ({_line_span(top)})"
        )
        fix = fixes.code_change("activation checkpointing: a change to the code")
        if not fixes.in_force(document, fixes.MEMORY_BUDGET):
            advice += (
                ", or torch._functorch.config.activation_memory_budget=0.5 to let the "
                "partitioner recompute instead of saving"
            )
            fix = fixes.MEMORY_BUDGET
    return {
        "kind": "memory",
        "severity": severity,
        "title": title,
        "count": len(saved["lines"]),
        "locations": [
            {"file": line["file"], "line": line["line"], "function": line["function"]}
            for line in top
        ],
        "evidence": "; ".join(evidence),
        "advice": advice,
        "fix": fix,
    }


def memory_summary(document: dict[str, Any]) -> dict[str, Any] | None:
    """``Exploration.memory``: the measured peaks and pools with every compile's static
    sections gathered (tensors and recomputed nodes carry their compile's id)."""
    measured = document.get("memory")
    sections = [(c["id"], c["memory"]) for c in document.get("compiles") or [] if c.get("memory")]
    if measured is None and not sections:
        return None
    saved = [(cid, m["saved_for_backward"]) for cid, m in sections if m["saved_for_backward"]]
    return {
        "peak_bytes": (measured or {}).get("peak_bytes"),
        "saved_for_backward": {
            "bytes": sum(s["bytes"] for _, s in saved),
            "tensors": sorted(
                ({**t, "compile": cid} for cid, s in saved for t in s["tensors"]),
                key=lambda t: -(t["bytes"] or 0),
            ),
            "lines": saved_activations(document)["lines"],
        },
        "recomputed": [{**r, "compile": cid} for cid, m in sections for r in m["recomputed"] or []],
        "activation_memory_budget": sorted(
            {
                m["activation_memory_budget"]
                for _, m in sections
                if m["activation_memory_budget"] is not None
            }
        ),
        "buffers": [{**b, "compile": cid} for cid, m in sections for b in m["buffers"]],
        "cudagraph_pools": (measured or {}).get("cudagraph_pools"),
        "error": (measured or {}).get("error"),
    }


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    found = memory_finding(data)
    if found is None:
        return []
    lines = [link for link in (source_link(loc) for loc in found["locations"]) if link]
    return [
        finding(
            "memory",
            found["severity"],
            found["title"],
            count=found["count"],
            locations=found["locations"],
            advice=found["advice"],
            fix=found["fix"],
            evidence=[tab_link("memory", "Where the memory goes"), *lines],
            details=[found["evidence"]] if found["evidence"] else [],
        )
    ]
