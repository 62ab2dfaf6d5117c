"""Where a compiled frame calls its graph, for host timers at each entry (measure/step_markers.py).

Dynamo's transformed bytecode calls a compile's graph through a global it installs in the
frame's module globals (``__compiled_fn_<n>_<uuid>``) and records the install as a cleanup
hook of the transformed code (``torch._dynamo.utils.CleanupManager.instance``: code ->
hooks with ``scope`` and ``name``), so the global can be swapped for a timer that calls
through and put back. Dynamo names the range of a cache lookup ``TorchDynamo Cache
Lookup``: the guards of every cache entry it tries at a frame's entry."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .lookup import TorchCompatError, resolve

GRAPH_GLOBAL_PREFIX = "__compiled_fn"
#: The profiler range Dynamo opens around a frame's cache lookup (its guards), from C.
CACHE_LOOKUP_RANGE = "TorchDynamo Cache Lookup"


def _hooks() -> dict[int, list[Any]]:
    return resolve("torch._dynamo.utils.CleanupManager").instance.values


def new_graph_globals(seen: set[int]) -> Iterator[tuple[dict[str, Any], str]]:
    """``(module globals, name)`` of each graph global of transformed code not in ``seen``
    (ids of transformed code, updated): the graphs compiled since the last call."""
    for code_id, hooks in list(_hooks().items()):
        if code_id in seen:
            continue
        seen.add(code_id)
        for hook in hooks:
            name, scope = getattr(hook, "name", None), getattr(hook, "scope", None)
            if isinstance(name, str) and name.startswith(GRAPH_GLOBAL_PREFIX):
                if isinstance(scope, dict) and name in scope:
                    yield scope, name


def never_traced(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with its code skipped by Dynamo (a timer called from compiled code would
    otherwise be a frame Dynamo tries to compile)."""
    resolve("torch._dynamo.eval_frame.skip_code")(fn.__code__)
    return fn


def _hook_fields() -> None:
    hook = resolve("torch._dynamo.utils.CleanupHook")
    fields = getattr(hook, "__dataclass_fields__", {})
    if not {"scope", "name"} <= set(fields):
        raise TorchCompatError("torch._dynamo.utils.CleanupHook has no scope/name fields")
    if not isinstance(_hooks(), dict):
        raise TorchCompatError("torch._dynamo.utils.CleanupManager.instance has no values")


def probes() -> tuple[Callable[[], Any], ...]:
    """What check() resolves for timing graph calls."""
    return (
        _hook_fields,
        lambda: resolve("torch._dynamo.eval_frame.skip_code"),
    )
