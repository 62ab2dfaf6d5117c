"""Every touch of a private torch API lives here, feature-detected.

torch's compile internals change every release. When one of the names below
moves, ``check()`` (run by the test suite) fails with a message naming it,
instead of a capture silently losing data. Supported: torch 2.11 to 2.15.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import logging
import platform
import sys
import weakref
from typing import TYPE_CHECKING, Any, Callable, Iterator

if TYPE_CHECKING:
    import torch

# torch is imported by the first function that needs it, not with this module: reading a
# log or a document goes through modules that import this one and never needs torch.


SUPPORTED_TORCH = "2.11-2.15"


class TorchCompatError(RuntimeError):
    """A private torch API tcexplore relies on is missing or has changed."""


def _resolve(dotted: str) -> Any:
    import torch  # noqa: PLC0415 - see above

    module_name, _, attr = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise TorchCompatError(
            f"torch {torch.__version__} has no `{dotted}`; tcexplore needs it "
            f"(supported: torch {SUPPORTED_TORCH}). Please report this with your torch version."
        ) from exc


def trace_logger() -> logging.Logger:
    """The logger behind TORCH_TRACE: a DEBUG handler on it receives every structured event."""
    return _resolve("torch._logging._internal.trace_log")


def interned_filenames() -> dict[int, str]:
    """Structured-trace stacks name files by index into this table."""
    table = _resolve("torch._logging.structured.INTERN_TABLE")
    return {index: name for name, index in table.items()}


def _module(name: str) -> Any:
    import torch  # noqa: PLC0415

    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise TorchCompatError(f"torch {torch.__version__} has no module `{name}`") from exc


def _inductor_config() -> Any:
    return _module("torch._inductor.config")


def _functorch_config() -> Any:
    return _module("torch._functorch.config")


def _inductor_debug() -> Any:
    debug = _module("torch._inductor.debug")
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
    - optionally bypass the FX graph and AOTAutograd caches: a cache hit replays code
      without re-running codegen, so torch emits no provenance for it.

    torch 2.13 keeps these per thread (a ContextVar), earlier releases per process. A value
    already as capture needs it is left alone, so that captures overlapping in several
    threads never put back a value another one set.
    """
    inductor = _inductor_config()
    functorch = _functorch_config()
    saved: list[tuple[Any, str, Any]] = []

    def set_value(obj: Any, name: str, value: Any) -> None:
        saved.append((obj, name, getattr(obj, name)))
        setattr(obj, name, value)

    try:
        if has_provenance_tracking_config() and not inductor.trace.provenance_tracking_level:
            set_value(inductor.trace, "provenance_tracking_level", BASIC_PROVENANCE)
        if bypass_caches and inductor.fx_graph_cache:
            set_value(inductor, "fx_graph_cache", False)
        if bypass_caches and functorch.enable_autograd_cache:
            set_value(functorch, "enable_autograd_cache", False)
        yield
    finally:
        for obj, name, value in reversed(saved):
            setattr(obj, name, value)


def settings_in_effect() -> dict[str, bool | None]:
    """What a compile running in the calling thread gets of capture_settings(): provenance
    on (None where this torch has no such flag) and the caches on."""
    inductor = _inductor_config()
    caches = not inductor.force_disable_caches and bool(
        inductor.fx_graph_cache or _functorch_config().enable_autograd_cache)
    provenance = (bool(inductor.trace.provenance_tracking_level)
                  if has_provenance_tracking_config() else None)
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
                node_schedule = [part for node in node_schedule
                                 for part in _scheduler_parts(node)]
        except Exception:  # noqa: BLE001 - never disturb the compile: torch's call as it came
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
    return [module for name, module in list(sys.modules.items())
            if name.startswith("torch._inductor")
            and getattr(module, _PROVENANCE_RECORDER, None) is recorder]


def settings_snapshot() -> dict[str, Any]:
    """The values capture touches (bytecode_hook() and tracing_profiler() included), to
    prove they come back unchanged."""
    inductor = _inductor_config()
    debug = _inductor_debug()
    snapshot = {
        "fx_graph_cache": inductor.fx_graph_cache,
        "enable_autograd_cache": _functorch_config().enable_autograd_cache,
        "pre_grad_graph_id": debug._pre_grad_graph_id,
        "provenance_recorders": {getattr(module, _PROVENANCE_RECORDER)
                                 for name, module in list(sys.modules.items())
                                 if name.startswith("torch._inductor")
                                 and hasattr(module, _PROVENANCE_RECORDER)},
        "bytecode_hooks": list(_bytecode_hooks().items()),
    }
    if has_provenance_tracking_config():
        snapshot["provenance_tracking_level"] = inductor.trace.provenance_tracking_level
    if has_dynamo_profiler():
        snapshot["dynamo_profiler"] = _dynamo_config().dynamo_profiler
        snapshot["dynamo_profiler_dump"] = _profiler_state_class().__dict__["dump_stats"]
    return snapshot


def _bytecode_hooks() -> dict[int, Any]:
    return _resolve("torch._dynamo.convert_frame._bytecode_hooks")


@contextlib.contextmanager
def bytecode_hook(on_bytecode: Callable[[Any, Any, Any], None]) -> Iterator[None]:
    """Hear every frame Dynamo transforms: ``on_bytecode(original_code, modified_code,
    replayed_side_effects)`` (the last None where this torch does not say) is called with
    the code objects torch's own bytecode hook receives, before torch installs the code;
    it returns nothing, so the code stays torch's. Removed on exit, however the block ends.
    """
    register = _resolve("torch._dynamo.convert_frame.register_bytecode_hook")
    side_effects = getattr(_module("torch._dynamo.convert_frame"),
                           "get_compiled_code_side_effects", None)

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
    return _module("torch._dynamo.config")


def has_dynamo_profiler() -> bool:
    """Whether this torch times the tracing of each user function (torch 2.13's
    ``torch._dynamo.dynamo_profiler``, switched on by ``config.dynamo_profiler``)."""
    try:
        return hasattr(_dynamo_config(), "dynamo_profiler") and hasattr(
            _profiler_state_class(), "dump_stats")
    except TorchCompatError:
        return False


def _profiler_state_class() -> Any:
    return _resolve("torch._dynamo.dynamo_profiler.DynamoProfilerState")


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
        on_timings([_timing(t) for t in timings[handed.get(state, 0):]])
        handed[state] = len(timings)
        printing(state, *args, **kwargs)

    state_class.dump_stats = dump_stats
    try:
        yield
    finally:
        state_class.dump_stats = printing


def _timing(timing: Any) -> dict[str, Any]:
    return {"function": timing.func_name, "file": timing.filename, "line": timing.firstlineno,
            "cumtime_ns": timing.cumtime_ns, "tottime_ns": timing.tottime_ns,
            "depth": timing.inline_depth, "primitive": timing.is_primitive_call}


def op_overload(target: str) -> Any:
    """``torch.ops.aten.exp.default`` -> the OpOverload, or None for anything else."""
    import torch  # noqa: PLC0415

    prefix = "torch.ops."
    if not target.startswith(prefix):
        return None
    parts = target[len(prefix):].split(".")
    if len(parts) != 3:
        return None
    namespace, name, overload = parts
    try:
        return getattr(getattr(getattr(torch.ops, namespace), name), overload)
    except (AttributeError, RuntimeError):
        return None


@functools.lru_cache(maxsize=None)
def is_view_op(target: str) -> bool:
    """Whether an ATen target like ``torch.ops.aten.permute.default`` only aliases its input.

    Inductor lowers views to pointer arithmetic (``reinterpret_tensor``), so no kernel
    contains them; they must not be counted as unmapped compute.
    """
    op = op_overload(target)
    if op is None:
        return False
    returns = op._schema.returns
    return bool(returns) and all(
        r.alias_info is not None and not r.alias_info.is_write for r in returns
    )


@functools.lru_cache(maxsize=None)
def has_side_effects(target: str) -> bool:
    """Whether a post-grad node calling ``target`` must run even when its value is unused:
    an op that mutates (schema) or that FX keeps as side-effectful (asserts, profiler
    ranges...). Anything that is not a plain ATen-style op (higher-order ops, Python
    functions) counts as having side effects, except ``operator.getitem``."""
    if target == "operator.getitem":
        return False
    op = op_overload(target)
    if op is None:
        return True
    side_effectful = _resolve("torch.fx.node._side_effectful_functions")
    return op in side_effectful or op._schema.is_mutable


# Modules that register ops compiled graphs call (collectives, Inductor's own ops) when
# imported; the op table is made with them loaded.
_OP_REGISTERING_MODULES = ("torch._inductor.lowering", "torch.distributed._functional_collectives")


def registered_ops() -> list[str]:
    """Every op torch's dispatcher knows, as ``namespace.name.overload`` (``aten.add.Tensor``,
    ``aten.relu.default``), with the modules that register compile-time ops loaded."""
    for name in _OP_REGISTERING_MODULES:
        _module(name)
    ops = []
    for qualified in _resolve("torch._C._dispatch_get_all_op_names")():
        namespace, _, name = qualified.partition("::")
        op, _, overload = name.partition(".")
        ops.append(f"{namespace}.{op}.{overload or 'default'}")
    return sorted(ops)


def tree_flatten_with_paths(tree: Any) -> tuple[list[tuple[str, Any]], Any]:
    """Leaves of a pytree with their key paths as text (``[0]['logits']``), and the spec."""
    pytree = _module("torch.utils._pytree")
    with_path, spec = pytree.tree_flatten_with_path(tree)
    return [(pytree.keystr(path), leaf) for path, leaf in with_path], spec


def tree_map_tensors(fn: Any, tree: Any) -> Any:
    """Apply ``fn`` to every tensor leaf of a pytree."""
    import torch  # noqa: PLC0415

    return _module("torch.utils._pytree").tree_map_only(torch.Tensor, fn, tree)


def pytree_children(tree: Any) -> list[tuple[str, Any, Any]] | None:
    """One level of a node of torch's pytree: ``(kind, key, child)`` per child, ``kind``
    one of "index", "key", "attr" (how the child is reached), or "other" (``key`` is then
    torch's text for it); None when pytree treats ``tree`` as a leaf (an unregistered type)."""
    pytree = _module("torch.utils._pytree")
    if pytree.tree_is_leaf(tree):
        return None
    try:
        with_path, _ = pytree.tree_flatten_with_path(tree, is_leaf=lambda x: x is not tree)
    except ValueError:  # registered without a flatten_with_keys_fn: children by position
        return [("index", i, child) for i, child in
                enumerate(pytree.tree_leaves(tree, is_leaf=lambda x: x is not tree))]
    children = []
    for (entry, *_), child in with_path:
        if isinstance(entry, pytree.SequenceKey):
            children.append(("index", entry.idx, child))
        elif isinstance(entry, pytree.MappingKey):
            children.append(("key", entry.key, child))
        elif isinstance(entry, pytree.GetAttrKey):
            children.append(("attr", entry.name, child))
        else:
            children.append(("other", pytree.keystr((entry,)), child))
    return children


def aten_ops_called(call: Any, tensors: list[torch.Tensor]) -> list[Any]:
    """The ATen/prims operator overloads ``call(*tensors)`` runs, traced by make_fx
    (on the real tensors: ``call`` runs once)."""
    make_fx = _resolve("torch.fx.experimental.proxy_tensor.make_fx")
    traced = make_fx(call)(*tensors)
    return [node.target for node in traced.graph.nodes
            if node.op == "call_function" and hasattr(node.target, "tags")]
def loaded_output_module(path: str | None) -> Any:
    """The Python module Inductor loaded from the output code at ``path`` (its kernels are
    module globals that ``call()`` looks up at run time), or None if not loaded here."""
    if not path:
        return None
    loaded = _resolve("torch._inductor.codecache.PyCodeCache").modules
    return next((m for m in reversed(loaded) if getattr(m, "__file__", None) == path), None)


LOG_ARTIFACTS = ("cudagraphs", "perf_hints")
# Modules whose artifact loggers carry CUDA-graph decisions; imported up front so their
# loggers exist before capture attaches to them (they are created at import).
_CUDAGRAPH_MODULES = ("torch._inductor.cudagraph_utils", "torch._inductor.cudagraph_trees",
                      "torch._inductor.scheduler")


def artifact_loggers() -> list[logging.Logger]:
    """torch's loggers for the LOG_ARTIFACTS (off by default: no propagation, no level)."""
    import torch  # noqa: PLC0415

    if torch.cuda.is_available():
        for name in _CUDAGRAPH_MODULES:
            _module(name)
    registry = _resolve("torch._logging._internal.log_registry")
    return [logging.getLogger(qname) for qname in sorted(registry.artifact_log_qnames)
            if qname.rpartition(".__")[2] in LOG_ARTIFACTS]


def current_compile_id() -> dict[str, Any]:
    """The compile id torch is working on now (what its log formatter prints), as trace metadata."""
    trace_id = _resolve("torch._guards.CompileContext").current_trace_id()
    if trace_id is None:
        return {}
    cid = trace_id.compile_id
    return {"frame_id": cid.frame_id, "frame_compile_id": cid.frame_compile_id,
            "compiled_autograd_id": cid.compiled_autograd_id, "attempt": trace_id.attempt}


def triton_version() -> str | None:
    try:
        import triton  # noqa: PLC0415 - optional
    except ImportError:
        return None
    return getattr(triton, "__version__", "unknown")


def environment() -> dict[str, Any]:
    import torch  # noqa: PLC0415

    cuda = torch.cuda.is_available()
    return {
        "torch": str(torch.__version__),  # a TorchVersion: plain JSON types only
        "triton": triton_version(),
        "cuda": torch.version.cuda,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "gpus": [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
        if cuda
        else [],
    }


def cpp_compiler() -> str:
    """The C++ compiler Inductor will invoke on CPU."""
    return _resolve("torch._inductor.cpp_builder.get_cpp_compiler")()


def compile_modes() -> list[str]:
    """The ``mode`` values torch.compile accepts ("default" included)."""
    return list(_resolve("torch._inductor.list_mode_options")())


def _check_profiler_timing_fields() -> None:
    """The fields _timing() reads, where this torch has the profiler (absent on 2.11)."""
    if has_dynamo_profiler():
        fields = _resolve("torch._dynamo.dynamo_profiler.FunctionTraceTiming").__dataclass_fields__
        for name in ("func_name", "filename", "firstlineno", "cumtime_ns", "tottime_ns",
                     "inline_depth", "is_primitive_call"):
            if name not in fields:
                raise TorchCompatError(f"FunctionTraceTiming has no `{name}`")


def check() -> list[str]:
    """Resolve every private API above; return the names that are missing."""
    import torch  # noqa: PLC0415

    missing = []
    for probe in (
        trace_logger,
        interned_filenames,
        _inductor_debug,
        lambda: _inductor_config().fx_graph_cache,
        lambda: _functorch_config().enable_autograd_cache,
        settings_in_effect,
        lambda: getattr(_inductor_debug(), _PROVENANCE_RECORDER),
        lambda: torch.ops.aten.permute.default._schema.returns[0].alias_info,
        lambda: _resolve("torch.fx.node._side_effectful_functions"),
        registered_ops,
        lambda: _resolve("torch._inductor.cpp_builder.get_cpp_compiler"),
        compile_modes,
        lambda: tree_flatten_with_paths({"a": [torch.zeros(1)]}),
        lambda: tree_map_tensors(lambda t: t, (torch.zeros(1),)),
        lambda: pytree_children({"a": [torch.zeros(1)]}),
        lambda: aten_ops_called(lambda t: t.exp(), [torch.zeros(1)]),
        artifact_loggers,
        current_compile_id,
        lambda: loaded_output_module("/nonexistent.py"),
        _bytecode_hooks,
        lambda: _resolve("torch._dynamo.convert_frame.register_bytecode_hook"),
        lambda: _check_profiler_timing_fields(),
        lambda: _resolve("torch._TorchCompileInductorWrapper"),
        lambda: _resolve("torch._TorchCompileWrapper"),
        lambda: _module("torch._dynamo.pgo")._CODE_STATE,
        compile_stance,
    ):
        try:
            probe()
        except (TorchCompatError, AttributeError) as exc:
            missing.append(str(exc))
    return missing


#: How torch names the profiler range around each step of a compile (Dynamo, AOTAutograd,
#: Inductor): ``dynamo_timed(key)`` in torch/_dynamo/utils.py opens ``f"{key} (dynamo_timed)"``.
COMPILE_RANGE_SUFFIX = " (dynamo_timed)"


def is_compile_range(name: str) -> bool:
    """A torch.profiler range torch opened while compiling."""
    return name.endswith(COMPILE_RANGE_SUFFIX)


# What torch's non-Inductor backends log when they ignore torch.compile's options, e.g.
# "aot_autograd-based backend ignoring extra kwargs {'mode': 'max-autotune'}" (backends/
# common.py, debugging.py, cudagraphs.py): the one place torch says two configurations run alike.
_BACKENDS_LOGGER = "torch._dynamo.backends"
IGNORING_OPTIONS = "backend ignoring extra kwargs"


@contextlib.contextmanager
def ignored_backend_options() -> Iterator[list[str]]:
    """The messages torch's backends log, inside the block, about options they ignore.
    Adds a handler only (levels, propagation and torch's own output are left alone)."""
    said: list[str] = []

    class _Heard(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            message = record.getMessage()
            if IGNORING_OPTIONS in message and message not in said:
                said.append(message)

    handler = _Heard(logging.WARNING)
    logger = logging.getLogger(_BACKENDS_LOGGER)
    logger.addHandler(handler)
    try:
        yield said
    finally:
        logger.removeHandler(handler)


# --- A warm process: compile afresh beside the user's compiled code (measure/explore.py) ---

def _fresh_backend_class(base: type) -> type:
    """``base`` (torch's backend wrapper) equal only to itself: Dynamo keys cache entries by
    backend (``==``), so entries compiled earlier with an equal wrapper never match."""
    return type(f"Fresh{base.__name__}", (base,),
                {"__eq__": object.__eq__, "__hash__": object.__hash__,
                 "__doc__": "A backend wrapper that compares equal only to itself."})


def supports_isolated_recompiles() -> bool:
    """torch.compile(isolate_recompiles=...) (torch 2.13): a call's own cache entries and
    recompile limit, apart from other compiles of the same code."""
    import inspect  # noqa: PLC0415

    import torch  # noqa: PLC0415

    return "isolate_recompiles" in inspect.signature(torch.compile).parameters


def isolated_compile(fn: Callable, compile_kwargs: dict[str, Any]) -> Callable:
    """``torch.compile(fn, **compile_kwargs)`` whose compiles ignore every earlier one in this
    process: a backend distinct from any other (so Dynamo's warm cache entries of ``fn``'s
    code never serve it) and, on torch >= 2.13, its own recompile region. Other compiled
    functions keep their entries. On torch 2.11/2.12 the first compile of code compiled
    before is logged as a recompile (BACKEND_MATCH) and shares its recompile limit."""
    import torch  # noqa: PLC0415

    kwargs = dict(compile_kwargs)
    backend = kwargs.pop("backend", "inductor")
    mode, options, dynamic = kwargs.pop("mode", None), kwargs.pop("options", None), \
        kwargs.get("dynamic")
    if mode is not None and options is not None:  # torch.compile's own message
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if backend == "inductor":
        wrapper = _fresh_backend_class(_resolve("torch._TorchCompileInductorWrapper"))(
            mode, options, dynamic)
    else:
        wrapper = _fresh_backend_class(_resolve("torch._TorchCompileWrapper"))(
            backend, mode, options, dynamic)
    if supports_isolated_recompiles():
        kwargs["isolate_recompiles"] = True
    return torch.compile(fn, backend=wrapper, **kwargs)


@contextlib.contextmanager
def fresh_dynamic_state() -> Iterator[None]:
    """Automatic-dynamic (PGO) state as in a fresh process inside the block, the process's
    put back after: shapes an earlier compile saw do not make this one dynamic."""
    pgo = _module("torch._dynamo.pgo")
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


# --- Frames Dynamo skipped (capture/not_compiled.py) ---

def _dynamo_tls() -> Any:
    tls = _resolve("torch._dynamo.eval_frame.dynamo_tls")
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
    return str(_resolve("torch._dynamo.eval_frame._stance").stance)


def is_compile_disabled(fn: Callable) -> bool:
    """``fn`` (or a module's forward) is wrapped by torch.compiler.disable."""
    target = getattr(fn, "forward", fn)
    return bool(getattr(target, "_torchdynamo_disable", False))


def custom_op_origin(qualname: str) -> dict[str, Any] | None:
    """Where the op ``ns::name`` was registered, as far as torch records it: the Python
    function of a ``torch.library.custom_op`` (its module, file and source), else the file
    ``torch._C._dispatch_dump`` names for its schema (a ``Library.define``) and the loaded
    module of that file. None when torch does not know the op (a log read later)."""
    import inspect  # noqa: PLC0415
    import re  # noqa: PLC0415

    import torch  # noqa: PLC0415

    opdef = _resolve("torch._library.custom_ops.OPDEFS").get(qualname)
    if opdef is not None:
        fn = getattr(opdef, "_init_fn", None)
        if fn is None:
            raise TorchCompatError(f"torch {torch.__version__}: CustomOpDef has no `_init_fn`")
        try:
            file = inspect.getsourcefile(fn)
        except TypeError:
            file = None
        return {"module": getattr(fn, "__module__", None), "file": file, "function": fn}
    try:
        dump = torch._C._dispatch_dump(qualname)
    except RuntimeError:
        return None
    if not dump.strip():
        return None
    match = re.search(r"^debug: registered at (.+):\d+$", dump, re.M)
    file = match[1] if match else None
    module = next((name for name, mod in list(sys.modules.items())
                   if file and getattr(mod, "__file__", None) == file), None)
    return {"module": module, "file": file, "function": None}


def profiler_memory_events(prof: Any) -> list[tuple[int, int, int]]:
    """``(start_ns, nbytes, device_type)`` of each allocation (+) and free (-) a finished
    ``torch.profiler.profile(profile_memory=True)`` recorded: its kineto results' "[memory]"
    events, the records torch's own memory tables are built from (no public accessor)."""
    results = prof.profiler.kineto_results
    return [(int(e.start_ns()), int(e.nbytes()), int(e.device_type()))
            for e in results.events() if e.name() == "[memory]"]
