"""Dynamo's hooks: the bytecode it installs, its tracing profiler's timings, the frames it
skipped and why, and the stance torch.compile runs under."""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from .lookup import TorchCompatError, resolve, torch_module


def _bytecode_hooks() -> dict[int, Any]:
    return resolve("torch._dynamo.convert_frame._bytecode_hooks")


@contextlib.contextmanager
def bytecode_hook(on_bytecode: Callable[[Any, Any, Any], None]) -> Iterator[None]:
    """Hear every frame Dynamo transforms: ``on_bytecode(original_code, modified_code,
    replayed_side_effects)`` (the last None where this torch does not say) is called with
    the code objects torch's own bytecode hook receives, before torch installs the code;
    it returns nothing, so the code stays torch's. Removed on exit, however the block ends.
    """
    register = resolve("torch._dynamo.convert_frame.register_bytecode_hook")
    side_effects = getattr(
        torch_module("torch._dynamo.convert_frame"), "get_compiled_code_side_effects", None
    )

    def hook(code: Any, out_code: Any) -> None:
        try:
            replayed = side_effects(out_code) if side_effects else None
        except Exception:  # noqa: BLE001 - torch not saying is "unknown", never a failed compile
            replayed = None
        on_bytecode(code, out_code, replayed)

    handle = register(hook)
    try:
        yield
    finally:
        handle.remove()


def _dynamo_config() -> Any:
    return torch_module("torch._dynamo.config")


def has_dynamo_profiler() -> bool:
    """Whether this torch times the tracing of each user function (torch 2.13's
    ``torch._dynamo.dynamo_profiler``, switched on by ``config.dynamo_profiler``)."""
    try:
        return hasattr(_dynamo_config(), "dynamo_profiler") and hasattr(
            _profiler_state_class(), "dump_stats"
        )
    except TorchCompatError:
        return False


def _profiler_state_class() -> Any:
    return resolve("torch._dynamo.dynamo_profiler.DynamoProfilerState")


@contextlib.contextmanager
def tracing_profiler(on_timings: Callable[[list[dict[str, Any]]], None]) -> Iterator[None]:
    """Where the user switched torch's Dynamo profiler on, hand its timings to ``on_timings``.

    The profiler (torch 2.13's ``torch._dynamo.dynamo_profiler``, ``config.dynamo_profiler``
    or TORCH_COMPILE_DYNAMO_PROFILER=1) times the tracing of every user function, inlined
    calls included, and passes them to ``DynamoProfilerState.dump_stats`` at the end of each
    trace, which prints them. For the block that method also hands them to ``on_timings``;
    it is put back on exit. tcexplore never switches the profiler on itself: in torch 2.13
    it makes Dynamo raise InternalTorchDynamoError on a frame whose graph break lies in a
    nested call (``mark_bytecode_tracing_stop`` reads ``root_tx.f_code`` of a tracer that
    is gone), so it would break compiles that work without it.
    """
    if not has_dynamo_profiler() or not _dynamo_config().dynamo_profiler:
        yield
        return
    state_class = _profiler_state_class()
    printing = state_class.__dict__["dump_stats"]
    handed: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()

    def dump_stats(state: Any, *args: Any, **kwargs: Any) -> None:
        # torch may dump one state more than once, its list growing: hand on the new ones
        timings = state.get_timings()
        on_timings([_timing(t) for t in timings[handed.get(state, 0) :]])
        handed[state] = len(timings)
        printing(state, *args, **kwargs)

    state_class.dump_stats = dump_stats
    try:
        yield
    finally:
        state_class.dump_stats = printing


def _timing(timing: Any) -> dict[str, Any]:
    return {
        "function": timing.func_name,
        "file": timing.filename,
        "line": timing.firstlineno,
        "cumtime_ns": timing.cumtime_ns,
        "tottime_ns": timing.tottime_ns,
        "depth": timing.inline_depth,
        "primitive": timing.is_primitive_call,
    }


def _check_profiler_timing_fields() -> None:
    """The fields _timing() reads, where this torch has the profiler (absent on 2.11)."""
    if has_dynamo_profiler():
        fields = resolve("torch._dynamo.dynamo_profiler.FunctionTraceTiming").__dataclass_fields__
        for name in (
            "func_name",
            "filename",
            "firstlineno",
            "cumtime_ns",
            "tottime_ns",
            "inline_depth",
            "is_primitive_call",
        ):
            if name not in fields:
                raise TorchCompatError(f"FunctionTraceTiming has no `{name}`")


def hooks_snapshot() -> dict[str, Any]:
    """What bytecode_hook() and tracing_profiler() touch, to prove it comes back unchanged."""
    snapshot: dict[str, Any] = {"bytecode_hooks": list(_bytecode_hooks().items())}
    if has_dynamo_profiler():
        snapshot["dynamo_profiler"] = _dynamo_config().dynamo_profiler
        snapshot["dynamo_profiler_dump"] = _profiler_state_class().__dict__["dump_stats"]
    return snapshot


# --- Frames Dynamo skipped (capture/not_compiled.py) ---


def _dynamo_tls() -> Any:
    tls = resolve("torch._dynamo.eval_frame.dynamo_tls")
    if not hasattr(tls, "skip_reasons"):
        raise TorchCompatError("torch._dynamo.eval_frame.dynamo_tls has no skip_reasons")
    return tls


def has_skip_reasons() -> bool:
    """Dynamo records each skipped frame's reason in a thread-local list (torch >= 2.13)."""
    try:
        _dynamo_tls()
    except (TorchCompatError, AttributeError, ImportError):
        return False
    return True


@contextlib.contextmanager
def skip_reasons() -> Iterator[list[str]]:
    """Dynamo's skip reasons in this thread during the block, each "name (file:line): reason"
    as torch writes them; the list is filled when the block ends. Empty where torch has none."""
    found: list[str] = []
    if not has_skip_reasons():
        yield found
        return
    tls = _dynamo_tls()
    saved = tls.skip_reasons
    start = len(saved) if saved is not None else 0
    if saved is None:
        tls.skip_reasons = []
    listening = tls.skip_reasons
    try:
        yield found
    finally:
        now = tls.skip_reasons  # a fullgraph compile starts a list of its own
        found.extend(listening[start:])
        if now is not listening and now is not None:
            found.extend(now)
        tls.skip_reasons = saved


def compile_stance() -> str:
    """The stance torch.compiler.set_stance() set ("default", "force_eager", ...)."""
    return str(resolve("torch._dynamo.eval_frame._stance").stance)


def compiled_from(fn: Any) -> Any:
    """The callable ``torch.compile(f)`` wraps (``f``), else ``fn`` itself."""
    return getattr(fn, "_torchdynamo_orig_callable", fn)


def is_compile_disabled(fn: Callable) -> bool:
    """``fn`` (or a module's forward) is wrapped by torch.compiler.disable."""
    target = getattr(fn, "forward", fn)
    return bool(getattr(target, "_torchdynamo_disable", False))


def probes() -> tuple[Callable[[], Any], ...]:
    """What check() resolves for Dynamo's hooks."""
    return (
        _bytecode_hooks,
        lambda: resolve("torch._dynamo.convert_frame.register_bytecode_hook"),
        _check_profiler_timing_fields,
        compile_stance,
    )
