"""What a failed value guard guarded, from the guard tree of the compile it failed against:
the value's type (a bool, an int, a float, a container's length) and its owner's class, and
the advice that follows from them. A flag of a library object that flips once, or
**kwargs called with other keywords, costs one compile per value and no setting avoids it:
that is said (expected), not a fix that does not apply; an int may be either (a layer's
index, a step counter), so it is explained and stays a warning."""

from __future__ import annotations

import re
from typing import Any

from .user_terms import source_name

_LEN = re.compile(r"^len\((?P<source>.+)\)\s*==\s*(?P<value>\d+)$")
_EQUALS = re.compile(r"^(?P<source>.+?)\s*==\s*(?P<value>-?[\d.e+-]+|True|False)$")
_TYPE = re.compile(r"type=<class '(?P<cls>[^']+)'>")
_OWNER = re.compile(r"^(?P<owner>.+)(?:\.\w+|\[[^\[\]]+\])$")
_BOOL_GUARDS = ("TRUE_MATCH", "FALSE_MATCH")

FLOAT = (
    "a Python float is baked into the graph as a constant, so each new value compiles "
    "again (up to torch._dynamo.config.recompile_limit); pass it as a tensor"
)
OPTIMIZER = " (for an optimizer: torch.optim.X(..., lr=torch.tensor(0.01)))"
BOOL = (
    "a Python bool is part of the graph, so each of its two values compiles once: "
    "expected when an object's state changes once (a cache filled by the first call); "
    "nothing to change"
)
INT = (
    "a Python int is a constant of the graph, so each value compiles once (one block "
    "compiled for several instances compiles once per instance whose value differs): "
    "expected while the values are few; an int that changes every call is better passed "
    "as an argument, which Dynamo makes dynamic from its second value"
)
KWARGS = (
    "a function taking **kwargs compiles once per set of keyword arguments: expected "
    "when its caller passes different ones on different calls (generate's first step "
    "and the next ones); nothing to change"
)
LENGTH = (
    "Dynamo unrolls over a container's items, so each length compiles once: keep the "
    "length fixed, or hold the items in one tensor"
)


def guarded(guard: Any, guards: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A failed guard on a value (``x.flag == False``, ``len(kwargs) == 5``,
    ``self.param_groups[0]['lr'] == 0.1``): its user name, the value it was compiled for,
    its kind (bool, int, float, length), the owner's class where the guard tree typed it,
    and the advice. None for a guard that is not on a value (a tensor's size, an id)."""
    text = str(guard or "").strip()
    length = _LEN.match(text)
    match = length or _EQUALS.match(text)
    if not match or ".size()" in match["source"] or ".stride()" in match["source"]:
        return None
    name, value = source_name(match["source"]), match["value"]
    typed = {source_name(g.get("source")): g for g in guards if g.get("source")}
    if length:
        kind, owner = "length", name
    else:
        own = _OWNER.match(name)
        owner = own["owner"] if own else None
        kind = _kind(value, typed.get(name))
    found = _TYPE.search(str((typed.get(owner) or {}).get("expression") or "")) if owner else None
    return {
        "name": name,
        "value": value,
        "kind": kind,
        "owner": owner,
        "owner_class": found["cls"] if found else None,
        "advice": _advice(kind, name),
        "expected": kind == "bool" or (kind == "length" and name == "kwargs"),
    }


def _kind(value: str, guard: dict[str, Any] | None) -> str:
    if value in ("True", "False") or (guard or {}).get("type") in _BOOL_GUARDS:
        return "bool"
    return "int" if re.fullmatch(r"-?\d+", value) else "float"


def _advice(kind: str, name: str) -> str:
    if kind == "length":
        return KWARGS if name == "kwargs" else LENGTH
    if kind == "float":
        return FLOAT + (OPTIMIZER if "param_groups" in name else "")
    return BOOL if kind == "bool" else INT


def described(value: dict[str, Any]) -> str:
    """``the bool kwargs['cache'].layers[0].is_initialized (of transformers…DynamicLayer)``;
    a name that is a phrase already (a value carried over a graph break) keeps its words."""
    if value["kind"] == "length":
        return f"the number of items in {value['name']}"
    if value["name"].startswith("the "):
        return f"{value['name']}, a {value['kind']},"
    of = f" (of {value['owner_class']})" if value.get("owner_class") else ""
    return f"the {value['kind']} {value['name']}{of}"
