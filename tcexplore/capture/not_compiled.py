"""Frames that ran without compiled code, each with torch's reason and what to do.

The document's ``not_compiled`` section: one entry per frame (function, file, line),
``category`` sorted from torch's own words, ``reason`` those words, ``advice`` the fix.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from typing import Any

from .library_files import is_library, own_package

# Dynamo's skip reasons read "name (file:firstlineno): reason" (eval_frame.add_skip_reason).
_SKIP_REASON = re.compile(
    r"(?P<function>[^\s(]+) \((?P<file>.*?):(?P<line>\d+)\): (?P<reason>.*)", re.DOTALL
)

# torch's words -> category, first match wins.
_CATEGORIES = (
    ("skipfiles", ("skipfiles", "skip_code", "skipped by")),
    ("no_tensor_ops", ("No ops traced", "no tensor-related objects found in frame")),
    ("recompile_limit", ("recompile_limit", "recompile limit", "cache_size_limit")),
    ("disabled", ("disable",)),
)

ADVICE = {
    "skipfiles": "Dynamo does not start compiling in torch's or a library's own frames (its "
    "skip rules): wrap the built-in layer in your own nn.Module or function and "
    "compile that; Dynamo then traces into the layer.",
    "disabled": "The function is wrapped by torch.compiler.disable (or "
    "torch._dynamo.disable): remove the decorator to compile it.",
    "stance": "torch.compiler.set_stance() makes compiled functions run eagerly: compile "
    'outside that stance, or set_stance("default").',
    "recompile_limit": "The frame recompiled up to torch._dynamo.config.recompile_limit and "
    "now runs eagerly: see the recompile reasons and mark the changing "
    "sizes dynamic (torch._dynamo.mark_dynamic) or raise the limit.",
    "no_tensor_ops": "The frame has no tensor operations to compile: nothing to do, or "
    "compile the function that does the tensor work.",
    "cache": "Dynamo reused code compiled before this capture: explore() compiles afresh; "
    "in your own capture, call torch.compiler.reset() first or compile a new function.",
    "other": "Dynamo ran this frame eagerly; torch's reason says why.",
}

# A capture keeps this many frames (torch's own modules can skip hundreds).
MAX_ENTRIES = 100


def category_of(reason: str) -> str:
    for category, words in _CATEGORIES:
        if any(word in reason for word in words):
            return category
    return "other"


def entry(
    function: str,
    file: str,
    line: int | None,
    category: str,
    reason: str,
    qualname: str | None = None,
) -> dict[str, Any]:
    return {
        "function": function,
        "file": file,
        "line": line,
        "category": category,
        "reason": reason,
        "advice": ADVICE[category],
        "qualname": qualname or qualname_at(file, line, function),
    }


@functools.lru_cache(maxsize=64)
def _definitions(file: str, modified: float) -> dict[tuple[int, str], str]:
    """(first line, name) -> qualified name of every function defined in a source file as
    it was last ``modified`` (a decorated one by its ``def`` line and its first decorator's,
    as code objects count)."""
    try:
        with open(file, encoding="utf-8") as source:
            tree = ast.parse(source.read())
    except (OSError, SyntaxError, ValueError):
        return {}
    found: dict[tuple[int, str], str] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                for line in [child.lineno] + [d.lineno for d in child.decorator_list[:1]]:
                    found[(line, child.name)] = name
                walk(child, f"{name}.<locals>.")

    walk(tree, "")
    return found


def qualname_at(file: str, line: int | None, function: str) -> str | None:
    """The qualified name (``TransformerEncoderLayer.forward``) of the function ``function``
    whose code starts at ``file:line``, read from the file while it is there; None if not."""
    if not file or line is None:
        return None
    try:
        modified = os.stat(file).st_mtime
    except OSError:
        return None
    return _definitions(file, modified).get((line, function))


def listener_roots() -> list[str]:
    """Where the code lies that runs because a capture listens: tcexplore's own, and the
    standard library's logging and json, which torch's loggers run once a capture turns
    them on (each trace record's payload is JSON-encoded in the compiling frame)."""
    import json  # noqa: PLC0415
    import logging  # noqa: PLC0415

    return [
        own_package(),
        *(os.path.dirname(os.path.realpath(module.__file__ or "")) for module in (logging, json)),
    ]


def from_skip_reasons(reasons: list[str]) -> list[dict[str, Any]]:
    """torch's skip reasons -> entries, one per frame (its first reason), in order. Frames
    of the code a capture runs (``listener_roots``: its handlers, logging, JSON encoding)
    are not the user's and are left out."""
    entries, seen = [], set()
    roots = listener_roots()
    for text in reasons:
        match = _SKIP_REASON.fullmatch(text.strip())
        if match is None:
            key: tuple[Any, ...] = (text,)
            found = entry("?", "", None, category_of(text), text)
        elif is_library(match["file"], roots):
            continue
        else:
            key = (match["function"], match["file"], match["line"])
            found = entry(
                match["function"],
                match["file"],
                int(match["line"]),
                category_of(match["reason"]),
                match["reason"],
            )
        if key not in seen:
            seen.add(key)
            entries.append(found)
    return entries[:MAX_ENTRIES]


def frame_of(fn: Any) -> tuple[str, str, int | None]:
    """Name, file and first line of a function or a module's forward."""
    import inspect  # noqa: PLC0415

    target = inspect.unwrap(getattr(fn, "forward", fn))
    code = getattr(target, "__code__", None)
    name = getattr(target, "__qualname__", None) or type(fn).__name__
    if code is None:
        return name, "", None
    return name, code.co_filename, code.co_firstlineno


def nothing_compiled(
    fn: Any, stance: str, disabled: bool, skipped: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The entries when a capture of ``fn`` compiled no graph: the stance or the disable
    decorator that explains it first, then torch's skip reasons; "other" if there is none."""
    name, file, line = frame_of(fn)
    if stance != "default":
        return [
            entry(
                name,
                file,
                line,
                "stance",
                f'torch.compiler.set_stance("{stance}") was in effect: no compile ran',
                qualname=name,
            ),
            *skipped,
        ]
    if disabled:
        return [
            entry(
                name,
                file,
                line,
                "disabled",
                "the function is wrapped by torch.compiler.disable: Dynamo ran it eagerly",
                qualname=name,
            ),
            *skipped,
        ]
    return skipped or [
        entry(
            name,
            file,
            line,
            "other",
            "torch emitted no compiled graph and no skip reason in this capture "
            "(Dynamo decides a frame's skip once per process: an earlier "
            "call may have made it)",
            qualname=name,
        )
    ]
