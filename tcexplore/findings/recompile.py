"""Recompiles, one finding per function (Dynamo frame), with every guard that failed (the
group itself stored as the finding's ``recompiled``: the views draw it, they do not group).
Each recompile's cause is the guard its newest cached entry failed (torch lists that entry
first); a cause on a value (a bool flag, an int, a float lr, a container's length) is named
in user terms with the advice its type and owner call for (guarded_value.py)."""

from __future__ import annotations

from typing import Any

from ..capture.resume_links import RESUME_NAME
from . import fixes
from .graph_break_audit import source_labels
from .guarded_value import described, guarded
from .make import compile_link, finding, location, short_where

GUARD_ADVICE = (
    "See which guard failed in Guards & recompiles; a size that changes can be "
    "made dynamic from the start (torch._dynamo.mark_dynamic or dynamic=True)."
)
# torch's reason when the entry was compiled by another backend (an earlier torch.compile
# or %%tcompile of the same code with other options): no size to make dynamic.
BACKEND_GUARD = "BACKEND_MATCH"
BACKEND_ADVICE = (
    "This code was compiled before with another backend (an earlier "
    "torch.compile or cell of it); each backend keeps an entry of its own, "
    "counted against the recompile limit: expected after switching backends, "
    "or call torch.compiler.reset() before compiling with the new one."
)


def _frame_id(compile_id: Any) -> str:
    return str(compile_id or "").split("/")[0]


def _group(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per frame: its compiles, the recompile count, each failed guard's count and each
    cause (guard, the compile it failed against) in order."""
    groups: dict[str, dict[str, Any]] = {}
    for c in data.get("compiles") or []:
        reasons = c.get("recompile_reasons") or []
        if not reasons:
            continue
        group = groups.setdefault(
            _frame_id(c.get("id")),
            {"compile": c, "count": 0, "ids": [], "guards": {}, "causes": {}},
        )
        group["count"] += len(reasons)
        group["ids"].append(c.get("id"))
        for attempt in reasons:
            for failed in attempt:
                guard = str(failed.get("guard") or "")
                group["guards"][guard] = group["guards"].get(guard, 0) + 1
            if attempt:
                newest = attempt[0]
                group["causes"].setdefault(
                    str(newest.get("guard") or ""), newest.get("failed_compile_id") or c.get("id")
                )
    return groups


def _advice(values: list[dict[str, Any] | None], causes: list[str]) -> str:
    """One sentence per advice, naming every value it is for, in the causes' order."""
    names: dict[str, list[str]] = {}
    for value, cause in zip(values, causes, strict=True):
        fallback = BACKEND_ADVICE if cause.startswith(BACKEND_GUARD) else GUARD_ADVICE
        named = names.setdefault(value["advice"] if value else fallback, [])
        if value and value["name"] not in named:
            named.append(value["name"])
    return " ".join(
        f"{', '.join(named)}: {advice}." if named else advice for advice, named in names.items()
    )


def _fix(values: list[dict[str, Any] | None], causes: list[str]) -> dict[str, Any]:
    """dynamic=True where a cause is a size (a guard on no value, not a backend's); else
    the values' own advice, which is a change to the code (or nothing to change)."""
    if any(v is None and not c.startswith(BACKEND_GUARD) for v, c in zip(values, causes)):
        return fixes.DYNAMIC
    if all(v is None for v in values):
        return fixes.code_change("a backend switch: a call (torch.compiler.reset()), not a setting")
    if all(v and v["expected"] for v in values):
        return fixes.code_change("expected: one compile per value, and no setting avoids it")
    return fixes.code_change("a change to the code: how the value reaches the compiled code")


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    by_id = {str(c.get("id")): c for c in data.get("compiles") or []}
    out = []
    for group in sorted(_group(data).values(), key=lambda g: -g["count"]):
        frame = group["compile"].get("frame") or {}
        function = str(frame.get("function") or "?")
        guards = sorted(group["guards"].items(), key=lambda kv: -kv[1])
        values = [
            guarded(guard, (by_id.get(str(against)) or group["compile"]).get("guards") or [])
            for guard, against in group["causes"].items()
        ]
        resumed = RESUME_NAME.match(function)
        at = (
            short_where(frame.get("file"), frame.get("line"), source_labels(data))
            if frame.get("file")
            else None
        )
        what = (
            f"the rest of {resumed['fn']} after its graph break" + (f" at {at}" if at else "")
            if resumed
            else function + (f" ({at})" if at else "")
        )
        first = values[0] if values else None
        top = next(iter(group["causes"]), guards[0][0] if guards else "")
        if first:
            title = (
                f"{what} recompiled ×{group['count']}"
                f"{' first' if len(values) > 1 else ''} because {described(first)} changed "
                f"(it was {first['value']} when compiled)"
            )
        else:
            title = f"{what} recompiled ×{group['count']}: {top}"
        expected = bool(values) and all(v and v["expected"] for v in values)
        loc = location(frame)
        out.append(
            finding(
                "recompile",
                "info" if expected else "warning",
                title,
                count=group["count"],
                locations=[loc] if loc else [],
                evidence=[compile_link(cid) for cid in group["ids"]],
                advice=_advice(values or [None], list(group["causes"]) or [top]),
                details=[f"{guard} (×{n})" for guard, n in guards],
                scalar=first["name"] if first else None,
                fix=_fix(values or [None], list(group["causes"]) or [top]),
                recompiled={
                    "function": function,
                    "frame": loc,
                    "count": group["count"],
                    "compiles": group["ids"],
                    "guards": [{"guard": guard, "count": n} for guard, n in guards],
                },
            )
        )
    return out
