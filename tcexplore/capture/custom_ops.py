"""Ops of other libraries an output code calls, and where they come from.

Inductor's output code calls an op it does not lower as ``torch.ops.<ns>.<name>``. torch's
own namespaces (``aten``, ``prims``, ``inductor``) exist wherever torch is imported; any
other op exists only once something registered it: a library at import
(``transformers::grouped_mm_fallback``), or the program itself (a ``torch.library.custom_op``
in the script or a notebook cell). A reproducer needs that registration, and only the live
process knows it, so capture records it per output code (``custom_ops``): the op, the
module that registered it, and, for an op of the program itself (``__main__``, which a
reproducer cannot import), its schema and its Python implementation's source.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from typing import Any

from .. import _torch_compat

TORCH_NAMESPACES = frozenset({"aten", "prims", "inductor"})
_OP = re.compile(r"\btorch\.ops\.(\w+)\.(\w+)")
PROGRAM_MODULE = "__main__"


def ops_called(text: str) -> list[str]:
    """``ns::name`` of each op of another namespace the code names, in order, once each."""
    found = (f"{ns}::{name}" for ns, name in _OP.findall(text or "") if ns not in TORCH_NAMESPACES)
    return list(dict.fromkeys(found))


def _globals_read(fn: Any) -> list[str]:
    """Statements giving the names the function reads from its module, where they are a
    module (``import math``) or a plain constant (``SCALE = 2.0``); other names are left to
    the reader (the reproducer stops with Python's NameError naming them)."""
    import types

    code, scope = getattr(fn, "__code__", None), getattr(fn, "__globals__", {})
    lines = []
    for name in dict.fromkeys(code.co_names if code else ()):
        if name not in scope:
            continue
        value = scope[name]
        if isinstance(value, types.ModuleType):
            lines.append(
                f"import {value.__name__}"
                if value.__name__ == name
                else f"import {value.__name__} as {name}"
            )
        elif isinstance(value, (bool, int, float, str, type(None))):
            try:
                if ast.literal_eval(repr(value)) == value:
                    lines.append(f"{name} = {value!r}")
            except (ValueError, SyntaxError):
                continue
    return lines


def _definition(fn: Any) -> str | None:
    """The function's own text, decorators removed (they register the op under names the
    reproducer does not have), after the module names it reads; None when Python cannot
    find its source."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None
    tree = ast.parse(source)
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    lines = source.split("\n")
    return "\n".join([*_globals_read(fn), *lines[node.lineno - 1 : node.end_lineno]])


def _schema(qualname: str) -> str | None:
    import torch

    ns, name = qualname.split("::")
    try:
        return str(getattr(getattr(torch.ops, ns), name).default._schema).split("::", 1)[1]
    except (AttributeError, IndexError, RuntimeError):
        return None


def origin(qualname: str) -> dict[str, Any]:
    """``{op, module[, file, schema, source]}`` for one op, from this process's registry."""
    found = _torch_compat.custom_op_origin(qualname) or {}
    entry: dict[str, Any] = {"op": qualname, "module": found.get("module")}
    if found.get("file"):
        entry["file"] = found["file"]
    if entry["module"] == PROGRAM_MODULE and found.get("function") is not None:
        source, schema = _definition(found["function"]), _schema(qualname)
        if source and schema:
            entry.update(schema=schema, source=source)
    return entry


def record_custom_ops(compiles: list[dict[str, Any]]) -> None:
    """Give every output code that calls ops of other namespaces its ``custom_ops``."""
    for record in compiles:
        for output in record.get("output_codes") or []:
            ops = ops_called(output.get("text") or "")
            if ops:
                output["custom_ops"] = [origin(op) for op in ops]
