"""Eager vs compiled outputs, gradients and the state a step left: every label the views show for them, decided
here and stored in the ``accuracy`` section (each leaf's ``state`` and ``label``, the
section's ``verdict``), and the finding: a match (ok), a difference (error), or one random
ops explain (warning, every differing leaf labelled "differs (random ops)", gradients
included), linked to the first diverging node and line."""

from __future__ import annotations

from typing import Any

from ..common.formatting import plural
from . import fixes
from .graph_break_audit import source_labels
from .make import finding, location, short_where, source_link, tab_link

Data = dict[str, Any]

RANDOM_CAUSES = ("random", "random_in_graph")
LEAVES = ("outputs", "inputs_after_call", "gradients", "state_after_call")
MATCH = "Compiled outputs match eager within tolerance."
NO_NODE = (
    "No graph node diverges on its own: the difference comes from outside the captured "
    "graphs, or only from their combination."
)


def leaf_label(leaf: Data, random_cause: bool) -> Data:
    """A leaf's ``state`` (match, mismatch, random, other: how it is styled) and ``label``
    (its words); ``random_cause`` when random ops explain the differences."""
    if not leaf.get("ok"):
        return (
            {"state": "random", "label": "differs (random ops)"}
            if random_cause
            else {"state": "mismatch", "label": "differs"}
        )
    if leaf.get("kind") == "not_compared":
        return {"state": "other", "label": "not compared"}
    if leaf.get("kind") == "truncated":
        return {"state": "other", "label": ""}
    return {"state": "match", "label": "match"}


def bad_gradients(accuracy: Data, rows: str = "gradients") -> list[str]:
    """Names of the parameters (or tensors) whose compiled gradient differs from eager's;
    ``rows="state_after_call"``: whose value after the step differs."""
    return [
        str(row.get("path"))
        for row in accuracy.get(rows) or []
        if isinstance(row, dict) and not row.get("ok") and row.get("kind") != "truncated"
    ]


def _named(names: list[str]) -> str:
    return ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def _node(found: Data, labels: dict[str, str]) -> str:
    """``node dropout (torch.nn.functional.dropout) at cell [1], line 5``."""
    source = found.get("source") if isinstance(found.get("source"), dict) else {}
    at = (
        f" at {short_where(source['file'], source.get('line'), labels)}"
        if source.get("file")
        else ""
    )
    return f"node {found.get('node')} ({found.get('target')}){at}"


def _why_random(accuracy: Data, found: Data | None) -> tuple[str, str] | None:
    """Why random ops make eager and compiled differ, and what to do; None without a random
    cause."""
    cause, ops = accuracy.get("cause"), ", ".join(accuracy.get("random_ops") or [])
    if cause == "random" and found:
        why = (
            f"Eager and Inductor draw different random numbers (node {found.get('node')} "
            f"runs {ops}), so these values differ by design, not because of a compiler "
            "error."
        )
    elif cause in RANDOM_CAUSES:
        why = (
            f"No single diverging node was found, but the graphs hold random ops ({ops}), "
            "and eager and Inductor draw different random numbers."
        )
    else:
        return None
    option = accuracy.get("fallback_random_option")
    outside = "create the random tensors outside the compiled code (seeded) and pass them in."
    advice = (
        f"To compare them, make Inductor use eager's random ops with {option}, or {outside}"
        if option
        else f"To compare them, {outside}"
    )
    return why, advice


def _first_divergence(accuracy: Data) -> Data | None:
    found = accuracy.get("first_divergence")
    return found if isinstance(found, dict) else None


def accuracy_verdict(accuracy: Data, labels: dict[str, str]) -> Data:
    """``{severity, headline, why, advice}``: the one sentence every view leads with, why
    the values differ where that is known, and what to do."""
    if accuracy.get("ok"):
        return {"severity": "ok", "headline": MATCH, "why": None, "advice": None}
    found = _first_divergence(accuracy)
    random = _why_random(accuracy, found)
    bad, left = bad_gradients(accuracy), bad_gradients(accuracy, "state_after_call")
    outputs_ok = all(
        row.get("ok") for row in accuracy.get("outputs") or [] if isinstance(row, dict)
    )
    if bad and outputs_ok:
        headline = f"Compiled outputs match eager, but the gradients of {_named(bad)} differ"
        at = f"; first in the backward of {_node(found, labels)}" if found else ""
    elif left and outputs_ok:
        headline = f"Compiled outputs match eager, but after the step {_named(left)} differ"
        at = f"; first at {_node(found, labels)}" if found else ""
    elif accuracy.get("cause") == "random" and found:
        headline = "Compiled outputs differ from eager at a random op"
        at = f": {_node(found, labels)}"
    else:
        headline = "Compiled outputs differ from eager"
        at = f"; first at {_node(found, labels)}" if found else ""
    also = (
        f" The gradients of {plural(len(bad), 'parameter')} differ too."
        if bad and not outputs_ok
        else ""
    ) + (
        f" After the step {plural(len(left), 'tensor')} of its state differ too."
        if left and (bad or not outputs_ok)
        else ""
    )
    if random and accuracy.get("cause") == "random_in_graph":
        at += "; random ops in the graphs may explain it"
    why, advice = random if random else (None, None)
    if not random and not found and not accuracy.get("divergence_error"):
        why = NO_NODE
    return {
        "severity": "warning" if random else "error",
        "headline": f"{headline}{at}.{also}",
        "why": why,
        "advice": advice,
    }


def labelled(accuracy: Data, labels: dict[str, str]) -> Data:
    """A copy of the section with every leaf's label and the verdict."""
    random = accuracy.get("cause") in RANDOM_CAUSES
    out = dict(accuracy)
    for key in LEAVES:
        if isinstance(accuracy.get(key), list):
            out[key] = [
                {**row, **leaf_label(row, random)} if isinstance(row, dict) else row
                for row in accuracy[key]
            ]
    out["verdict"] = accuracy_verdict(out, labels)
    return out


def decide(data: Data) -> None:
    if isinstance(data.get("accuracy"), dict):
        data["accuracy"] = labelled(data["accuracy"], source_labels(data))


def _fix(data: Data, accuracy: Data, verdict: Data) -> Data | None:
    """Inductor's fallback_random where the advice names it and it is not in force; other
    advice is the code's."""
    if not verdict.get("advice"):
        return None
    if (
        accuracy.get("fallback_random_option")
        and accuracy.get("cause") in RANDOM_CAUSES
        and not fixes.in_force(data, fixes.FALLBACK_RANDOM)
    ):
        return fixes.FALLBACK_RANDOM
    return fixes.code_change("random tensors made outside the compiled code: a code change")


def find(data: Data) -> list[Data]:
    accuracy = data.get("accuracy")
    if not isinstance(accuracy, dict):
        return []
    verdict = accuracy.get("verdict") or accuracy_verdict(accuracy, source_labels(data))
    found = _first_divergence(accuracy) or {}
    evidence = [tab_link("accuracy", "Accuracy")]
    where = found.get("source") or {}
    if link := source_link(where):
        evidence.append(link)
    loc = location(where)
    return [
        finding(
            "accuracy",
            verdict["severity"],
            verdict["headline"],
            locations=[loc] if loc and verdict["severity"] != "ok" else [],
            evidence=evidence,
            advice=verdict.get("advice"),
            fix=_fix(data, accuracy, verdict),
            details=[verdict["why"]] if verdict.get("why") else [],
        )
    ]
