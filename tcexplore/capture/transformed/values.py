"""The values of the reading (texts, or lists built in the code and followed exactly) and the
expressions over them: slices, constants, indexes into a list built here."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

MAX_EXPR = 160  # characters of one expression shown; longer ones end in "…"


@dataclass
class Value:
    text: str
    items: list[Value] | None = None  # a list or tuple built by this code, followed exactly
    kind: str = "value"  # "null", "const", "graph", "resume", "dynamo", "value"
    made_by: list[int] = field(default_factory=list)  # instructions that loaded it
    step: dict[str, Any] | None = None  # the call step whose result this is

    def shown(self) -> str:
        if self.items is not None:
            inner = ", ".join(v.shown() for v in self.items)
            text = (
                f"({inner}{',' if len(self.items) == 1 else ''})"
                if self.kind == "tuple"
                else f"[{inner}]"
            )
        else:
            text = self.text
        return text if len(text) <= MAX_EXPR else text[: MAX_EXPR - 1] + "…"


NULL = Value("NULL", kind="null")


def is_null(value: Value) -> bool:
    return value.kind == "null"  # by kind: a stack copied for the other way of a branch


class Unread(Exception):
    """An instruction the reading does not know: it stops there."""


def slice_of(parts: list[Value]) -> Value:
    texts = ["" if p.kind == "const" and p.text == "None" else p.shown() for p in parts]
    return Value(":".join(texts), kind="slice", step={"parts": parts})


def constant(value: Value) -> Any:
    if value.kind != "const":
        raise ValueError(value.text)
    return ast.literal_eval(value.text)


def index_in(key: Value, length: int) -> int | slice | None:
    try:
        if key.kind == "slice":
            return slice(*(constant(p) for p in key.step["parts"]))
        index = constant(key)
    except (ValueError, SyntaxError):
        return None
    return index if isinstance(index, int) and -length <= index < length else None


def pick(items: list[Value], key: Value) -> Value | None:
    index = index_in(key, len(items))
    if isinstance(index, slice):
        return Value("", items=items[index], kind="list")
    return None if index is None else items[index]


def attribute_name(name: Value) -> str:
    try:
        return str(constant(name))
    except (ValueError, SyntaxError):
        return f"[{name.shown()}]"
