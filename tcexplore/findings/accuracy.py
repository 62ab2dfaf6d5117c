"""Eager vs compiled outputs: a match (ok), a difference (error), or one random ops
explain (warning), linked to the first diverging node and line."""

from __future__ import annotations

from typing import Any

from ..render.isolation import bad_gradients, gradient_verdict
from .make import finding, location, source_link, tab_link

RANDOM_ADVICE = ("eager and Inductor draw different random numbers: to compare them make "
                 "Inductor use eager's random ops (torch._inductor.config.fallback_random = "
                 "True), or create the random tensors outside the compiled code and pass them in")


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    accuracy = data.get("accuracy")
    if not isinstance(accuracy, dict):
        return []
    found = accuracy.get("first_divergence") if isinstance(accuracy.get("first_divergence"), dict) else {}
    evidence = [tab_link("accuracy", "Accuracy")]
    where = found.get("source") or {}
    if link := source_link(where):
        evidence.append(link)
    loc = location(where)
    random = accuracy.get("cause") in ("random", "random_in_graph")
    if accuracy.get("ok"):
        return [finding("accuracy", "ok", "Compiled outputs match eager within tolerance.",
                        evidence=evidence)]
    at = f" (first at node {found.get('node')})" if found.get("node") else ""
    if found.get("of") == "gradients" and found.get("node"):
        at = f" (first in the backward of node {found.get('node')})"
    gradients = gradient_verdict(accuracy)
    if gradients:
        title = gradients[:-1] + at + "."
    elif random:
        title = f"Compiled outputs differ from eager at a random op{at}."
    else:
        title = f"Compiled outputs differ from eager{at}."
    if not gradients and bad_gradients(accuracy):
        title += f" The gradients of {len(bad_gradients(accuracy))} parameters differ too."
    return [finding("accuracy", "warning" if random else "error", title,
                    locations=[loc] if loc else [], evidence=evidence,
                    advice=RANDOM_ADVICE if random else None)]
