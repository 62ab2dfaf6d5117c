"""Recompiles, one finding per function (Dynamo frame), with every guard that failed.
A guard on a Python scalar's value (a float lr a scheduler changes) is named in user terms
with its fix."""

from __future__ import annotations

from typing import Any

from ..graph_break_audit import RESUME_NAME, source_labels
from .make import compile_link, finding, location, short_where
from .user_terms import scalar_guard

SCALAR_ADVICE = ("a Python number is baked into the graph as a constant, so each new value "
                 "compiles again (up to torch._dynamo.config.recompile_limit); pass it as a "
                 "tensor (for an optimizer: torch.optim.X(..., lr=torch.tensor(0.01)))")
GUARD_ADVICE = ("see which guard failed in Guards & recompiles; a size that changes can be "
                "made dynamic from the start (torch._dynamo.mark_dynamic or dynamic=True)")


def _frame_id(compile_id: Any) -> str:
    return str(compile_id or "").split("/")[0]


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = {}
    for c in data.get("compiles") or []:
        reasons = c.get("recompile_reasons") or []
        if not reasons:
            continue
        group = groups.setdefault(_frame_id(c.get("id")), {"compile": c, "count": 0, "ids": [],
                                                            "guards": {}})
        group["count"] += len(reasons)
        group["ids"].append(c.get("id"))
        for failed in (g for attempt in reasons for g in attempt):
            guard = str(failed.get("guard") or "")
            group["guards"][guard] = group["guards"].get(guard, 0) + 1
    out = []
    for group in sorted(groups.values(), key=lambda g: -g["count"]):
        frame = group["compile"].get("frame") or {}
        function = str(frame.get("function") or "?")
        guards = sorted(group["guards"].items(), key=lambda kv: -kv[1])
        top = guards[0][0] if guards else ""
        resumed = RESUME_NAME.match(function)
        at = short_where(frame.get("file"), frame.get("line"), source_labels(data)) if frame.get("file") else None
        what = (f"the rest of {resumed['fn']} after its graph break" + (f" at {at}" if at else "")
                if resumed else function + (f" ({at})" if at else ""))
        scalar = scalar_guard(top)
        if scalar:
            named = scalar[0] if scalar[0].startswith("the ") else f"the Python value {scalar[0]}"
            title = (f"{what} recompiled ×{group['count']} because {named} changed "
                     f"(it was {scalar[1]} when compiled)")
        else:
            title = f"{what} recompiled ×{group['count']}: {top}"
        loc = location(frame)
        out.append(finding(
            "recompile", "warning", title, count=group["count"],
            locations=[loc] if loc else [],
            evidence=[compile_link(cid) for cid in group["ids"]],
            advice=SCALAR_ADVICE if scalar else GUARD_ADVICE,
            details=[f"{guard} (×{n})" for guard, n in guards],
            scalar=scalar[0] if scalar else None))
    return out
