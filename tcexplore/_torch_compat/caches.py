"""Inductor's FX-graph and AOTAutograd caches as the user has them while a capture is open.

A capture switches provenance tracking on (settings.py), and torch makes that level part
of both caches' keys (``FxGraphHashDetails.provenance_tracking_level``, torch 2.12 on:
"whether provenance data is stored in the CompiledFxGraph"). Left so, a compile under
capture would look up another key than the same compile without it: the entries the
user's runs wrote would miss, and what it wrote (and ``save_cache_artifacts()`` saved)
would serve no run without tcexplore. So while a capture is open, a key computed in a
context where capture set the level holds the level the user had. An entry written
without provenance then serves the capture without it, and its compile says so; the
code is the same either way (provenance adds comments to the wrapper).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any

from .lookup import TorchCompatError, resolve, torch_module

# The provenance level the user had where a capture set another (torch keeps the config
# per context from 2.13 on, and copies it into the threads it runs a compile in, as it
# copies this); None where capture set none.
USERS_PROVENANCE_LEVEL: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "tcexplore_users_provenance_level", default=None
)


def _hash_details() -> Any:
    return resolve("torch._inductor.codecache.FxGraphHashDetails")


@contextlib.contextmanager
def keys_as_without_capture() -> Iterator[None]:
    """Process-wide, held by the listeners every capture shares: a cache key computed
    where a capture set the provenance level holds the user's level instead."""
    details = _hash_details()
    original = details.__dict__["__init__"]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807 - torch's name
        original(self, *args, **kwargs)
        users = USERS_PROVENANCE_LEVEL.get()
        if users is not None and hasattr(self, "provenance_tracking_level"):
            self.provenance_tracking_level = users

    details.__init__ = __init__
    try:
        yield
    finally:
        details.__init__ = original


def cache_settings() -> dict[str, bool]:
    """The user's cache settings in this thread, before a capture changes any: the
    FX-graph and AOTAutograd caches on, and Inductor's switch that turns every cache off
    (``force_disable_caches``, TORCHINDUCTOR_FORCE_DISABLE_CACHES)."""
    inductor = torch_module("torch._inductor.config")
    functorch = torch_module("torch._functorch.config")
    return {
        "fx_graph_cache": bool(inductor.fx_graph_cache),
        "autograd_cache": bool(functorch.enable_autograd_cache),
        "force_disable_caches": bool(inductor.force_disable_caches),
    }


def hash_details_init() -> Any:
    """What keys_as_without_capture() replaces, to prove it comes back."""
    return _hash_details().__dict__["__init__"]


def probes() -> tuple[Callable[[], Any], ...]:
    def init_is_own() -> None:
        if "__init__" not in _hash_details().__dict__:
            raise TorchCompatError("FxGraphHashDetails has no __init__ of its own")

    return (
        _hash_details,
        init_is_own,
        cache_settings,
    )
