"""Every touch of a private torch API lives in this package, feature-detected.

torch's compile internals change every release. When one of the names the submodules
use moves, ``check()`` (run by the test suite) fails with a message naming it, instead of
a capture silently losing data. Supported: torch 2.11 to 2.15 (``SUPPORTED_TORCH``).

One submodule per torch area: ``lookup`` (resolving private names, TorchCompatError),
``settings`` (the config capture switches, Inductor's provenance globals), ``caches``
(the caches' keys as the user has them, the user's cache settings), ``dynamo``
(bytecode hook, tracing profiler, skip reasons, stance), ``warm_process`` (compiling
afresh beside earlier compiles), ``ops`` (the op registry), ``pytree``, ``logs`` (torch's
loggers), ``installation`` (versions, C++ compiler, compile modes), ``runtime`` (output
modules, profiler ranges and memory events, CUDA graph pool outputs) and ``graph_calls`` (where a compiled frame
calls its graph, for host timers; the cache lookup's profiler range). Callers use the names re-exported here.

torch is imported by the first function that needs it, not with this package: reading a
log or a document goes through modules that import it and never needs torch.
"""

from __future__ import annotations

from . import (
    caches,
    dynamo,
    graph_calls,
    installation,
    logs,
    ops,
    pytree,
    runtime,
    settings,
    warm_process,
)
from .caches import cache_settings, keys_as_without_capture
from .dynamo import (
    bytecode_hook,
    compile_stance,
    compiled_from,
    has_dynamo_profiler,
    has_skip_reasons,
    is_compile_disabled,
    skip_reasons,
    tracing_profiler,
)
from .graph_calls import CACHE_LOOKUP_RANGE, never_traced, new_graph_globals
from .installation import compile_modes, cpp_compiler, environment
from .logs import (
    artifact_loggers,
    current_compile_id,
    ignored_backend_options,
    interned_filenames,
    trace_logger,
)
from .lookup import SUPPORTED_TORCH, TorchCompatError
from .ops import (
    aten_ops_called,
    custom_op_origin,
    has_side_effects,
    is_view_op,
    op_overload,
    registered_ops,
)
from .pytree import pytree_children, tree_flatten_with_paths, tree_map_tensors
from .runtime import (
    cudagraph_output_pointers,
    is_compile_range,
    loaded_output_module,
    profiler_memory_events,
)
from .settings import (
    backward_provenance,
    capture_settings,
    fused_node_provenance,
    patched_config,
    settings_in_effect,
    settings_snapshot,
)
from .warm_process import (
    fresh_dynamic_state,
    fresh_inductor_caches,
    isolated_compile,
    own_entry_ids,
)

__all__ = [
    "CACHE_LOOKUP_RANGE",
    "SUPPORTED_TORCH",
    "TorchCompatError",
    "artifact_loggers",
    "aten_ops_called",
    "backward_provenance",
    "bytecode_hook",
    "cache_settings",
    "capture_settings",
    "check",
    "compile_modes",
    "compile_stance",
    "cpp_compiler",
    "cudagraph_output_pointers",
    "current_compile_id",
    "custom_op_origin",
    "environment",
    "fresh_dynamic_state",
    "fresh_inductor_caches",
    "fused_node_provenance",
    "has_dynamo_profiler",
    "has_side_effects",
    "has_skip_reasons",
    "ignored_backend_options",
    "interned_filenames",
    "compiled_from",
    "is_compile_disabled",
    "is_compile_range",
    "is_view_op",
    "isolated_compile",
    "keys_as_without_capture",
    "loaded_output_module",
    "never_traced",
    "new_graph_globals",
    "op_overload",
    "own_entry_ids",
    "patched_config",
    "profiler_memory_events",
    "pytree_children",
    "registered_ops",
    "settings_in_effect",
    "settings_snapshot",
    "skip_reasons",
    "trace_logger",
    "tracing_profiler",
    "tree_flatten_with_paths",
    "tree_map_tensors",
]

# Each area's probes: what check() resolves.
_AREAS = (
    logs,
    settings,
    caches,
    ops,
    installation,
    pytree,
    runtime,
    dynamo,
    warm_process,
    graph_calls,
)


def check() -> list[str]:
    """Resolve every private API of every area; return the names that are missing."""
    missing = []
    for area in _AREAS:
        for probe in area.probes():
            try:
                probe()
            except (TorchCompatError, AttributeError) as exc:
                missing.append(str(exc))
    return missing
