"""torch's loggers: the structured trace (TORCH_TRACE) and its intern table, the artifact
loggers, the compile id log records carry, and what the backends log about ignored options."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

from .lookup import resolve, torch_module


def trace_logger() -> logging.Logger:
    """The logger behind TORCH_TRACE: a DEBUG handler on it receives every structured event."""
    return resolve("torch._logging._internal.trace_log")


def interned_filenames() -> dict[int, str]:
    """Structured-trace stacks name files by index into this table."""
    table = resolve("torch._logging.structured.INTERN_TABLE")
    return {index: name for name, index in table.items()}


LOG_ARTIFACTS = ("cudagraphs", "perf_hints")
# Modules whose artifact loggers carry CUDA-graph decisions; imported up front so their
# loggers exist before capture attaches to them (they are created at import).
_CUDAGRAPH_MODULES = (
    "torch._inductor.cudagraph_utils",
    "torch._inductor.cudagraph_trees",
    "torch._inductor.scheduler",
)


def artifact_loggers() -> list[logging.Logger]:
    """torch's loggers for the LOG_ARTIFACTS (off by default: no propagation, no level)."""
    import torch  # imported lazily: see the package docstring

    if torch.cuda.is_available():
        for name in _CUDAGRAPH_MODULES:
            torch_module(name)
    registry = resolve("torch._logging._internal.log_registry")
    return [
        logging.getLogger(qname)
        for qname in sorted(registry.artifact_log_qnames)
        if qname.rpartition(".__")[2] in LOG_ARTIFACTS
    ]


def current_compile_id() -> dict[str, Any]:
    """The compile id torch is working on now (what its log formatter prints), as trace metadata."""
    trace_id = resolve("torch._guards.CompileContext").current_trace_id()
    if trace_id is None:
        return {}
    cid = trace_id.compile_id
    return {
        "frame_id": cid.frame_id,
        "frame_compile_id": cid.frame_compile_id,
        "compiled_autograd_id": cid.compiled_autograd_id,
        "attempt": trace_id.attempt,
    }


# What torch's non-Inductor backends log when they ignore torch.compile's options, e.g.
# "aot_autograd-based backend ignoring extra kwargs {'mode': 'max-autotune'}" (backends/
# common.py, debugging.py, cudagraphs.py): the one place torch says two configurations run alike.
_BACKENDS_LOGGER = "torch._dynamo.backends"
IGNORING_OPTIONS = "backend ignoring extra kwargs"
_IGNORING_MODULES = tuple(
    f"{_BACKENDS_LOGGER}.{name}" for name in ("common", "debugging", "cudagraphs")
)


@contextlib.contextmanager
def ignored_backend_options() -> Iterator[list[str]]:
    """The messages torch's backends log, inside the block, about options they ignore.

    The compiles inside are tcexplore's (compare()'s rows), so the message is kept, as data,
    and goes no further: torch's own handler would print it to the user's stderr (red in a
    notebook) for a compile the user did not run. A filter on the backends' logger, which
    drops only that message; levels, propagation and every other record are left alone.
    A logger's filters see only its own records, so the filter goes on every backend
    module's logger (``torch._dynamo.backends.common``, ``.debugging``, ...)."""
    said: list[str] = []

    def heard(record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if IGNORING_OPTIONS not in message:
            return True
        if message not in said:
            said.append(message)
        return False

    for module in _IGNORING_MODULES:  # their loggers exist once they are imported
        torch_module(module)
    loggers = [
        logging.getLogger(name)
        for name in list(logging.Logger.manager.loggerDict)
        if name == _BACKENDS_LOGGER or name.startswith(_BACKENDS_LOGGER + ".")
    ]
    for logger in loggers:
        logger.addFilter(heard)
    try:
        yield said
    finally:
        for logger in loggers:
            logger.removeFilter(heard)


def probes() -> tuple[Callable[[], Any], ...]:
    """What check() resolves for torch's loggers."""
    return (
        trace_logger,
        interned_filenames,
        artifact_loggers,
        current_compile_id,
        lambda: [torch_module(name) for name in _IGNORING_MODULES],
    )
