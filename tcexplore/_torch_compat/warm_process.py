"""Compiling afresh in a warm process, beside the user's compiled code (measure/explore.py):
a backend no earlier compile matches, its own recompile region, automatic-dynamic state
as in a fresh process, and (compare()'s rows) Inductor's caches empty."""

from __future__ import annotations

import contextlib
import types
from collections.abc import Callable, Iterator
from typing import Any

from .dynamo import compiled_from
from .lookup import TorchCompatError, resolve, torch_module

# Marks the backend wrappers of tcexplore's own compiles, so their cache entries are known.
_OWN_BACKEND = "_tcexplore_own_compile"


def _fresh_backend_class(base: type) -> type:
    """``base`` (torch's backend wrapper) equal only to itself: Dynamo keys cache entries by
    backend (``==``), so entries compiled earlier with an equal wrapper never match."""
    return type(
        f"Fresh{base.__name__}",
        (base,),
        {
            "__eq__": object.__eq__,
            "__hash__": object.__hash__,
            _OWN_BACKEND: True,
            "__doc__": "A backend wrapper that compares equal only to itself.",
        },
    )


def own_entry_ids() -> set[str]:
    """The compile ids of the cache entries this process holds that isolated_compile's
    compiles made (explore()'s, the first-divergence search's): Dynamo's entries of every
    code it has converted, told by their backend. On torch 2.11/2.12, which has no isolated
    regions, a later compile of the same code meets them and logs them as recompile
    reasons."""
    converted = resolve("torch._dynamo.convert_frame.input_codes")
    entries_of = resolve("torch._C._dynamo.eval_frame._debug_get_cache_entry_list")
    found: set[str] = set()
    for ref in list(converted.seen):
        code = ref()
        if code is None:
            continue
        found.update(str(entry.compile_id) for entry in entries_of(code) if _is_own(entry.backend))
    return found


def _is_own(backend: Any) -> bool:
    """torch.compile wraps the backend it is given (ours too) in its own wrapper, whose
    ``compiler_fn`` is what it wrapped."""
    for _ in range(3):
        if getattr(backend, _OWN_BACKEND, False):
            return True
        backend = getattr(backend, "compiler_fn", None)
    return False


def supports_isolated_recompiles() -> bool:
    """torch.compile(isolate_recompiles=...) (torch 2.13): a call's own cache entries and
    recompile limit, apart from other compiles of the same code."""
    import inspect

    import torch  # imported lazily: see the package docstring

    return "isolate_recompiles" in inspect.signature(torch.compile).parameters


def isolated_compile(fn: Callable, compile_kwargs: dict[str, Any]) -> Callable:
    """``torch.compile(fn, **compile_kwargs)`` whose compiles ignore every earlier one in this
    process: a backend distinct from any other (so Dynamo's warm cache entries of ``fn``'s
    code never serve it), a plain function's code copied (so its entries are not kept on the
    user's code) and, on torch >= 2.13, its own recompile region. Other compiled functions
    keep their entries. On torch 2.11/2.12 a module's ``forward`` compiled before is logged
    as a recompile (BACKEND_MATCH) and shares its recompile limit."""
    import torch

    kwargs = dict(compile_kwargs)
    backend = kwargs.pop("backend", "inductor")
    mode, options, dynamic = (
        kwargs.pop("mode", None),
        kwargs.pop("options", None),
        kwargs.get("dynamic"),
    )
    options = dict(options) if options else None
    guard_filter = options.pop("guard_filter_fn", None) if options else None
    if mode is not None and options is not None:  # torch.compile's own message
        raise RuntimeError(
            "Either mode or options can be specified, but both can't be specified at the same time."
        )
    if backend == "inductor":
        wrapper = _fresh_backend_class(resolve("torch._TorchCompileInductorWrapper"))(
            mode, options, dynamic
        )
    else:
        wrapper = _fresh_backend_class(resolve("torch._TorchCompileWrapper"))(
            backend, mode, options, dynamic
        )
    if supports_isolated_recompiles():
        kwargs["isolate_recompiles"] = True
    if guard_filter is not None:  # torch.compile hands it to Dynamo, not to the backend
        kwargs["options"] = {"guard_filter_fn": guard_filter}
    return torch.compile(_with_own_code(fn), backend=wrapper, **kwargs)


def _with_own_code(fn: Callable) -> Callable:
    """``fn`` run from a copy of its code object, where ``fn`` is a plain function: Dynamo
    keeps its cache entries, and counts its recompile limit, on the code object. So the
    entries of explore()'s compiles go with the copy and never count against the user's own
    compiles of ``fn`` (on torch 2.11/2.12 the ninth explore() of a function made the user's
    ``torch.compile`` of it run eagerly). A function Dynamo is told not to compile is
    compiled as it is: ``torch._dynamo.skip`` marks its code, which a copy would lose, and
    ``torch.compiler.disable`` returns a wrapper marked so. A bound method or a module is
    compiled as it is too."""
    inner = fn
    while not getattr(inner, "_torchdynamo_disable", False):
        if compiled_from(inner) is inner:
            break
        inner = compiled_from(inner)  # torch.compile(f) given: torch compiles f
    else:
        return fn
    if not isinstance(inner, types.FunctionType):
        return fn
    copy = types.FunctionType(
        inner.__code__.replace(),
        inner.__globals__,
        inner.__name__,
        inner.__defaults__,
        inner.__closure__,
    )
    copy.__kwdefaults__ = inner.__kwdefaults__
    copy.__qualname__ = inner.__qualname__
    copy.__module__ = inner.__module__
    copy.__doc__ = inner.__doc__
    copy.__annotations__ = inner.__annotations__
    copy.__dict__.update(inner.__dict__)
    return copy


@contextlib.contextmanager
def fresh_dynamic_state() -> Iterator[None]:
    """Automatic-dynamic (PGO) state as in a fresh process inside the block, the process's
    put back after: shapes an earlier compile saw do not make this one dynamic."""
    pgo = torch_module("torch._dynamo.pgo")
    names = [n for n in ("_CODE_STATE", "_INIT_CODE_STATE") if hasattr(pgo, n)]
    if len(names) != 2:
        raise TorchCompatError("torch._dynamo.pgo has no _CODE_STATE/_INIT_CODE_STATE")
    saved = {n: getattr(pgo, n) for n in names}
    for name in names:
        setattr(pgo, name, None)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(pgo, name, value)


def _fresh_cache() -> Callable[[], Any]:
    """torch's own context manager for a clean, temporary Inductor/Triton cache directory
    (its in-memory code caches cleared on entry and exit); named ``fresh_inductor_cache``
    before torch 2.8, kept as an alias since."""
    utils = torch_module("torch._inductor.utils")
    found = getattr(utils, "fresh_cache", None) or getattr(utils, "fresh_inductor_cache", None)
    if found is None:
        raise TorchCompatError("torch._inductor.utils has no fresh_cache/fresh_inductor_cache")
    return found


@contextlib.contextmanager
def fresh_inductor_caches() -> Iterator[None]:
    """Inside the block, compiles find Inductor's and Triton's caches empty, as in a fresh
    process with a cache directory of its own (compare(isolate="process") gives each row
    one): kernels are generated and built again, not loaded from an earlier row's build.
    The directory is removed after; compiled code already loaded keeps working, and the
    user's later compiles use the usual directory again (reloading what they built there)."""
    with _fresh_cache()():
        yield


def probes() -> tuple[Callable[[], Any], ...]:
    """What check() resolves for compiling afresh."""
    return (
        lambda: resolve("torch._TorchCompileInductorWrapper"),
        lambda: resolve("torch._TorchCompileWrapper"),
        lambda: torch_module("torch._dynamo.pgo")._CODE_STATE,
        _fresh_cache,
        own_entry_ids,
        _cache_entry_fields,
    )


def _cache_entry_fields() -> None:
    """own_entry_ids() reads each entry's backend and compile id."""
    entry = resolve("torch._C._dynamo.eval_frame._CacheEntry")
    missing = [name for name in ("backend", "compile_id") if not hasattr(entry, name)]
    if missing:
        raise TorchCompatError(f"torch._C._dynamo.eval_frame._CacheEntry has no {missing}")
