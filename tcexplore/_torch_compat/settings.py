"""The compile settings capture switches on and puts back: Inductor's and functorch's
config (provenance tracking, the caches) and Inductor's provenance globals; a snapshot of
everything capture touches, to prove it comes back."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

from . import caches, dynamo
from .lookup import TorchCompatError, torch_module


def _inductor_config() -> Any:
    return torch_module("torch._inductor.config")


def _functorch_config() -> Any:
    return torch_module("torch._functorch.config")


def _inductor_debug() -> Any:
    debug = torch_module("torch._inductor.debug")
    if not hasattr(debug, "_pre_grad_graph_id"):
        raise TorchCompatError("torch._inductor.debug._pre_grad_graph_id is gone")
    return debug


def has_provenance_tracking_config() -> bool:
    return hasattr(_inductor_config().trace, "provenance_tracking_level")


@contextlib.contextmanager
def capture_settings(bypass_caches: bool) -> Iterator[None]:
    """Switch on what capture needs in this thread, and put every value back afterwards.

    - provenance tracking (kernel -> post-grad node mapping), where this torch has the flag:
      level 2, "basic", unless the user asked for more. It maps kernels to post-grad nodes as
      level 1 does; level 1 also records every node's history through every graph pass,
      2-5% more compile time, for a more complete pre- -> post-grad map that capture
      does not need;
    - only where asked (a cold capture), bypass the FX graph and AOTAutograd caches: a
      cache hit replays code without lowering and codegen, so torch emits no pre-grad or
      joint graph and no codegen phases for it. The caches stay as the user has them
      otherwise, keys included (caches.keys_as_without_capture()).

    torch 2.13 keeps these per thread (a ContextVar), earlier releases per process. A value
    already as capture needs it is left alone, so that captures overlapping in several
    threads never put back a value another one set.
    """
    inductor = _inductor_config()
    functorch = _functorch_config()
    saved: list[tuple[Any, str, Any]] = []
    token = None

    def set_value(obj: Any, name: str, value: Any) -> None:
        saved.append((obj, name, getattr(obj, name)))
        setattr(obj, name, value)

    try:
        if has_provenance_tracking_config() and not inductor.trace.provenance_tracking_level:
            users = inductor.trace.provenance_tracking_level
            set_value(inductor.trace, "provenance_tracking_level", BASIC_PROVENANCE)
            token = caches.USERS_PROVENANCE_LEVEL.set(users)
        if bypass_caches and inductor.fx_graph_cache:
            set_value(inductor, "fx_graph_cache", False)
        if bypass_caches and functorch.enable_autograd_cache:
            set_value(functorch, "enable_autograd_cache", False)
        yield
    finally:
        if token is not None:
            caches.USERS_PROVENANCE_LEVEL.reset(token)
        for obj, name, value in reversed(saved):
            setattr(obj, name, value)


def settings_in_effect() -> dict[str, bool | None]:
    """What a compile running in the calling thread gets of capture_settings(): provenance
    on (None where this torch has no such flag) and the caches on."""
    inductor = _inductor_config()
    caches = not inductor.force_disable_caches and bool(
        inductor.fx_graph_cache or _functorch_config().enable_autograd_cache
    )
    provenance = (
        bool(inductor.trace.provenance_tracking_level) if has_provenance_tracking_config() else None
    )
    return {"provenance": provenance, "caches": caches}


@contextlib.contextmanager
def backward_provenance() -> Iterator[None]:
    """torch dumps the kernel -> node mapping only when a pre-grad graph id is set, which is
    never the case for a lazily compiled backward: set a sentinel. A module global, so
    process-wide: the listeners shared by all open captures hold it."""
    debug = _inductor_debug()
    saved = debug._pre_grad_graph_id
    if not saved:
        debug._pre_grad_graph_id = _BACKWARD_PROVENANCE_SENTINEL
    try:
        yield
    finally:
        if not saved:
            debug._pre_grad_graph_id = saved


# torch's provenance_tracking_level "basic": the kernel -> post-grad node mapping only.
BASIC_PROVENANCE = 2

# Any truthy int that is never the id() of a live graph.
_BACKWARD_PROVENANCE_SENTINEL = 1

_PROVENANCE_RECORDER = "set_kernel_post_grad_provenance_tracing"


def _scheduler_parts(node: Any) -> list[Any]:
    """A scheduler node that holds no IR node of its own (a vertically fused node) as the
    nodes it fuses; anything else as itself."""
    if getattr(node, "node", True) is None and hasattr(node, "get_nodes"):
        inner = list(node.get_nodes())
        if inner != [node]:
            return [part for item in inner for part in _scheduler_parts(item)]
    return [node]


@contextlib.contextmanager
def fused_node_provenance() -> Iterator[None]:
    """torch records a kernel's post-grad nodes from the IR node of each scheduler node it
    is handed; a foreach/combo kernel hands it the vertically fused nodes of each subkernel,
    which hold no IR node, so torch records nothing for them (a compiled AdamW step: every
    ``_foreach_*`` node and ``copy_`` unmapped). While capturing, such nodes are handed to
    torch's own recorder as the nodes they fuse. Process-wide, like the recorder."""
    original = getattr(_inductor_debug(), _PROVENANCE_RECORDER, None)
    if original is None:  # check() names it; capture goes on without the fused nodes
        yield
        return

    def record(node_schedule: Any, *args: Any, **kwargs: Any) -> Any:
        try:  # a list of scheduler nodes (an extern kernel comes alone)
            if isinstance(node_schedule, list):
                node_schedule = [part for node in node_schedule for part in _scheduler_parts(node)]
        except Exception:  # noqa: BLE001, S110 - never disturb the compile: torch's call as it came
            pass
        return original(node_schedule, *args, **kwargs)

    # Inductor's code generators import the recorder by name (some only once a compile
    # imports them): replace it wherever it is held, and put it back wherever it went.
    for module in _holding(original):
        setattr(module, _PROVENANCE_RECORDER, record)
    try:
        yield
    finally:
        for module in _holding(record):
            setattr(module, _PROVENANCE_RECORDER, original)


def _holding(recorder: Any) -> list[Any]:
    return [
        module
        for name, module in list(sys.modules.items())
        if name.startswith("torch._inductor")
        and getattr(module, _PROVENANCE_RECORDER, None) is recorder
    ]


def settings_snapshot() -> dict[str, Any]:
    """The values capture touches (bytecode_hook() and tracing_profiler() included), to
    prove they come back unchanged."""
    inductor = _inductor_config()
    debug = _inductor_debug()
    snapshot = {
        "fx_graph_cache": inductor.fx_graph_cache,
        "enable_autograd_cache": _functorch_config().enable_autograd_cache,
        "pre_grad_graph_id": debug._pre_grad_graph_id,
        "force_disable_caches": inductor.force_disable_caches,
        "cache_key_details": caches.hash_details_init(),
        "users_provenance_level": caches.USERS_PROVENANCE_LEVEL.get(),
        "provenance_recorders": {
            getattr(module, _PROVENANCE_RECORDER)
            for name, module in list(sys.modules.items())
            if name.startswith("torch._inductor") and hasattr(module, _PROVENANCE_RECORDER)
        },
        **dynamo.hooks_snapshot(),
    }
    if has_provenance_tracking_config():
        snapshot["provenance_tracking_level"] = inductor.trace.provenance_tracking_level
    return snapshot


_CONFIG_MODULES = {
    "dynamo": "torch._dynamo.config",
    "inductor": "torch._inductor.config",
    "functorch": "torch._functorch.config",
}


def patched_config(module: str, name: str, value: Any) -> contextlib.AbstractContextManager[Any]:
    """``torch._<module>.config.<name> = value`` inside the block, put back after it (the
    config module's own ``patch``); a name this torch lacks raises TorchCompatError."""
    config = torch_module(_CONFIG_MODULES[module])
    if not hasattr(config, name):
        raise TorchCompatError(f"{_CONFIG_MODULES[module]}.{name} is gone")
    return config.patch(**{name: value})


def probes() -> tuple[Callable[[], Any], ...]:
    """What check() resolves for the settings capture switches."""
    return (
        _inductor_debug,
        lambda: _inductor_config().fx_graph_cache,
        lambda: _functorch_config().enable_autograd_cache,
        settings_in_effect,
        lambda: getattr(_inductor_debug(), _PROVENANCE_RECORDER),
        *(lambda path=path: torch_module(path).patch for path in _CONFIG_MODULES.values()),
    )
