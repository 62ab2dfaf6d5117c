"""Recompiles, one finding per function (Dynamo frame), with every guard that failed (the
group itself stored as the finding's ``recompiled``: the views draw it, they do not group).
Each recompile's cause is the guard its newest cached entry failed (torch lists that entry
first); a cause on a value (a bool flag, an int, a float lr, a container's length) is named
in user terms with the advice its type and owner call for (guarded_value.py)."""

from __future__ import annotations

import re
from typing import Any

from ..capture.resume_links import RESUME_NAME
from . import fixes
from .graph_break_audit import source_labels
from .guarded_value import described, guarded
from .make import compile_link, finding, location, short_where

SIZE_ADVICE = (
    "See which guard failed in Guards & recompiles; a size that changes can be "
    "made dynamic from the start (torch._dynamo.mark_dynamic or dynamic=True)."
)
# A size recompiled although sizes are dynamic already (dynamic=True in force): torch
# specialized this one (0 or 1, or a line that needs its value).
SIZE_IN_FORCE_ADVICE = (
    "Sizes are dynamic already; torch specialized this one (a size of 0 or "
    "1, or a line that needs its value): torch._dynamo.mark_unbacked(tensor, dim) keeps it "
    "symbolic, torch._check(...) states what the line may assume."
)
# A tensor's property other than its sizes (requires_grad, dtype, device, dispatch keys):
# each combination compiles once, and no setting makes it dynamic.
TENSOR_ADVICE = (
    "A tensor's {what} differs from the call that was compiled: each {what} compiles "
    "once, and no setting makes it dynamic; call it the same way each time ({example})."
)
TENSOR_EXAMPLES = {
    "requires_grad": "e.g. the same tensors requiring grad, or the call under torch.no_grad() "
    "every time",
    "dtype": "e.g. cast the inputs to one dtype before the call",
    "device": "e.g. the inputs on one device",
}
SHAPE_GUARD_ADVICE = (
    "A condition on a size that the compiled code checks failed (the guard's line is in "
    "Guards & recompiles): each outcome compiles once; torch._check(...) states what the "
    "line may assume, or the line can be written without it."
)
OTHER_ADVICE = (
    "See which guard failed in Guards & recompiles: the object or state it checks differs "
    "from the call that was compiled."
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
_SIZE = re.compile(r"\b(size|stride) mismatch\b")
_TENSOR = re.compile(r"^tensor '.+?' (?P<what>[a-z_ ]+?) mismatch\b")
_SHAPE_SOURCE = re.compile(r"\.(size|stride)\(\)\[\d+\]")


def cause_kind(guard: str, value: dict[str, Any] | None) -> str:
    """What a failed guard checked, by torch's words for it: ``value`` (a Python value,
    guarded_value.py), ``backend``, ``size`` (a size or stride mismatch), ``tensor`` (another
    property of a tensor: requires_grad, dtype, device, ...), ``shape_guard`` (a condition on
    a size), else ``other`` (an object's identity or type, global state)."""
    if value is not None:
        return "value"
    if guard.startswith(BACKEND_GUARD):
        return "backend"
    if _SIZE.search(guard):
        return "size"
    if _TENSOR.match(guard):
        return "tensor"
    return "shape_guard" if _SHAPE_SOURCE.search(guard) else "other"


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


def _cause_advice(kind: str, guard: str, value: dict[str, Any] | None, dynamic: bool) -> str:
    if kind == "value" and value:
        return value["advice"]
    if kind == "size":
        return SIZE_IN_FORCE_ADVICE if dynamic else SIZE_ADVICE
    if kind == "tensor":
        what = _TENSOR.match(guard)["what"]  # type: ignore[index]
        example = TENSOR_EXAMPLES.get(what, "the same kind of tensor each call")
        return TENSOR_ADVICE.format(what=what, example=example)
    return {"backend": BACKEND_ADVICE, "shape_guard": SHAPE_GUARD_ADVICE}.get(kind, OTHER_ADVICE)


def _advice(values: list[dict[str, Any] | None], causes: list[str], dynamic: bool) -> str:
    """One sentence per advice, naming every value it is for, in the causes' order."""
    names: dict[str, list[str]] = {}
    for value, cause in zip(values, causes, strict=True):
        advice = _cause_advice(cause_kind(cause, value), cause, value, dynamic)
        named = names.setdefault(advice.rstrip("."), [])
        if value and value["name"] not in named:
            named.append(value["name"])
    return " ".join(
        f"{', '.join(named)}: {advice}." if named else f"{advice}."
        for advice, named in names.items()
    )


def _fix(values: list[dict[str, Any] | None], causes: list[str], dynamic: bool) -> dict[str, Any]:
    """dynamic=True where a cause is a size mismatch and sizes are not dynamic already; else
    what the causes call for, which is a change to the code (or nothing to change)."""
    kinds = [cause_kind(c, v) for v, c in zip(values, causes)]
    if "size" in kinds and not dynamic:
        return fixes.DYNAMIC
    if "size" in kinds:
        return fixes.code_change("sizes are dynamic already: mark_unbacked or torch._check")
    if all(k == "backend" for k in kinds):
        return fixes.code_change("a backend switch: a call (torch.compiler.reset()), not a setting")
    if all(v and v["expected"] for v in values):
        return fixes.code_change("expected: one compile per value, and no setting avoids it")
    if "tensor" in kinds:
        return fixes.code_change("a tensor's property, not its size: a change to the call")
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
        dynamic = fixes.in_force(data, fixes.DYNAMIC, group["ids"])
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
                advice=_advice(values or [None], list(group["causes"]) or [top], dynamic),
                details=[f"{guard} (×{n})" for guard, n in guards],
                scalar=first["name"] if first else None,
                fix=_fix(values or [None], list(group["causes"]) or [top], dynamic),
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
