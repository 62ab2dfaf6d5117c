"""How an output is taken apart for comparison: its children, and the path naming each.

Containers are opened in this order: anything registered with torch's pytree (tuples,
lists, dicts, namedtuples, transformers' ``ModelOutput``...), dataclasses (their
fields), then plain objects through their public instance attributes: that is how a
Hugging Face cache (not registered with pytree) yields ``layers[0].keys``. Tensors and
plain values are leaves; so is anything else (a function, a module, an object without
attributes), which is then not compared.
"""

from __future__ import annotations

import dataclasses
import enum
import keyword
import numbers
from typing import Any

import torch

from .. import _torch_compat

# Leaves compared by value: numbers (floats with a tolerance), text, None, and torch's
# value-like types.
VALUE_TYPES = (
    numbers.Number,
    str,
    bytes,
    type(None),
    enum.Enum,
    torch.dtype,
    torch.device,
    torch.layout,
    torch.memory_format,
)


def is_value(value: Any) -> bool:
    return isinstance(value, VALUE_TYPES)


def type_name(value: Any) -> str:
    cls = type(value)
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


_MISSING = object()


def _is_name(key: Any) -> bool:
    return isinstance(key, str) and key.isidentifier() and not keyword.iskeyword(key)


def _step(container: Any, kind: str, key: Any, child: Any) -> str:
    """Path text for one step, as Python would spell the access: ``[0]``, ``['a']``,
    ``.logits`` (a mapping key also readable as an attribute, as on ``ModelOutput``)."""
    if kind == "index":
        return f"[{key}]"
    if kind == "attr":
        return f".{key}"
    if kind == "key":
        if _is_name(key) and getattr(container, key, _MISSING) is child:
            return f".{key}"
        return f"[{key!r}]"
    return str(key)


def _public_attributes(value: Any) -> list[tuple[str, Any]] | None:
    """A plain object's public instance attributes; None for callables (functions,
    classes, modules) and objects without a ``__dict__``."""
    if callable(value):
        return None
    try:
        attributes = vars(value)
    except TypeError:
        return None
    public = [(name, child) for name, child in attributes.items() if not name.startswith("_")]
    return public or None


def children(value: Any) -> list[tuple[str, Any]] | None:
    """``(path step, child)`` for each child of a container; None for a leaf."""
    if isinstance(value, torch.Tensor) or is_value(value):
        return None
    found = _torch_compat.pytree_children(value)
    if found is not None:
        return [(_step(value, kind, key, child), child) for kind, key, child in found]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            (f".{field.name}", getattr(value, field.name)) for field in dataclasses.fields(value)
        ]
    attributes = _public_attributes(value)
    if attributes is not None:
        return [(f".{name}", child) for name, child in attributes]
    return None


def join(prefix: str, step: str) -> str:
    """``prefix`` + ``step``; a path starting with an attribute drops its dot (``logits``)."""
    path = prefix + step
    return path[1:] if not prefix and step.startswith(".") else path
