"""The process-wide listeners that every open capture shares.

torch's trace logger, its artifact loggers, ``warnings.showwarning``, two of Inductor's
module globals, how its caches compute keys, Dynamo's bytecode hooks and its tracing
profiler are one per process. They
are attached and set when the first capture opens and put back when the last one closes, in
whatever order captures in several threads open and close. Each record goes to every capture
open at that moment; a closed one hears nothing more.

Each record is also checked, in the thread that compiles, against what the open captures
need (provenance on, and caches bypassed where one asked): torch keeps those settings per thread, so a compile
in a thread no capture covers runs without them, and its capture says so.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import warnings
from typing import TYPE_CHECKING, Any

from .. import _torch_compat
from .bytecode_hook import bytecode_record
from .library_files import is_library, own_package

if TYPE_CHECKING:
    from . import CaptureSession

_lock = threading.Lock()
_open: list[CaptureSession] = []
_attached: contextlib.ExitStack | None = None

# torch closes every compile with this event, also one a BaseException cuts short.
_COMPILE_END = "compilation_metrics"
# Events of the moments a compile reads capture's settings, in the thread that compiles:
# a frame's compile starting (caches are looked up), code generated (provenance), a lazily
# compiled backward done. Not run-time events, which may come from any thread.
_SETTINGS_READ = ("dynamo_start", "inductor_output_code", "bwd_compilation_metrics")


def open_session(session: CaptureSession) -> None:
    global _attached
    with _lock:
        if not _open:
            stack = contextlib.ExitStack()
            try:
                stack.enter_context(_torch_compat.backward_provenance())
                stack.enter_context(_torch_compat.fused_node_provenance())
                stack.enter_context(_torch_compat.keys_as_without_capture())
                stack.enter_context(_attached_to_trace_log())
                stack.enter_context(_attached_to_artifact_logs())
                stack.enter_context(_recording_warnings())
                stack.enter_context(_hearing_dynamo())
            except BaseException:
                stack.close()
                raise
            _attached = stack
        _open.append(session)


def close_session(session: CaptureSession) -> None:
    global _attached
    with _lock:
        _open.remove(session)
        if not _open and _attached is not None:
            attached, _attached = _attached, None
            attached.close()


def _deliver(metadata: dict[str, Any], payload: str | None) -> None:
    for session in list(_open):
        session.add(metadata, payload)


def _report(exc: Exception) -> None:
    for session in list(_open):
        session.listener_failed(exc)


class _TraceHandler(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)

    def emit(self, record: logging.LogRecord) -> None:
        # Never let a capture problem reach torch.compile: keep it for the document instead.
        try:
            metadata = dict(getattr(record, "metadata", {}) or {})
            if any(key in metadata for key in _SETTINGS_READ):
                _check_settings(metadata)
            if _COMPILE_END in metadata:
                _note_interruption(metadata)
            _deliver(metadata, getattr(record, "payload", None))
        except Exception as exc:  # noqa: BLE001
            _report(exc)


def _check_settings(metadata: dict[str, Any]) -> None:
    effect = _torch_compat.settings_in_effect()
    thread = threading.current_thread().name
    for session in list(_open):
        session.check_settings(metadata, effect, thread)


def _note_interruption(metadata: dict[str, Any]) -> None:
    """torch closes a compile in a ``finally`` that a KeyboardInterrupt (any BaseException
    that is not an Exception) passes through; its metrics then name no error. The exception
    on its way up is visible here: add it as an event of that compile."""
    exc = sys.exc_info()[1]
    if exc is None or isinstance(exc, Exception):
        return
    envelope = {
        k: metadata[k]
        for k in ("frame_id", "frame_compile_id", "compiled_autograd_id", "attempt")
        if k in metadata
    }
    _deliver(
        {"compile_interrupted": {"type": type(exc).__name__, "message": str(exc)}, **envelope}, None
    )


@contextlib.contextmanager
def _attached_to_trace_log() -> Any:
    logger = _torch_compat.trace_logger()
    handler = _TraceHandler()
    saved_level, saved_handlers = logger.level, list(logger.handlers)
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        # torch's LazyTraceHandler removes itself at the first event when TORCH_TRACE is
        # unset: put back the handlers as they were (in order), keeping any added meanwhile.
        added = [h for h in logger.handlers if h not in saved_handlers and h is not handler]
        for current in list(logger.handlers):
            logger.removeHandler(current)
        for previous in saved_handlers + added:
            logger.addHandler(previous)
        logger.setLevel(saved_level)


class _ArtifactLogHandler(logging.Handler):
    """torch's CUDA-graph decisions and perf hints are log messages, not trace events:
    turn each into an event ``log_<artifact>`` tagged with the compile id torch is in.

    To hear DEBUG messages the logger's level is lowered and its propagation switched off
    while captures are open; records the user would have seen anyway (at or above the
    logger's former effective level, when it propagated) are passed on to the parent.
    """

    def __init__(self, passes_on: dict[str, int | None]):
        super().__init__(level=logging.DEBUG)
        self.passes_on = passes_on  # logger name -> former effective level, None: silent

    def emit(self, record: logging.LogRecord) -> None:
        try:
            artifact = record.name.rpartition(".__")[2]
            _deliver(
                {
                    f"log_{artifact}": {"level": record.levelname, "message": record.getMessage()},
                    **_torch_compat.current_compile_id(),
                },
                None,
            )
        except Exception as exc:  # noqa: BLE001 - never disturb the compile
            _report(exc)
        threshold = self.passes_on.get(record.name)
        logger = logging.getLogger(record.name)
        if threshold is not None and record.levelno >= threshold and logger.parent:
            logger.parent.handle(record)


@contextlib.contextmanager
def _attached_to_artifact_logs() -> Any:
    loggers = _torch_compat.artifact_loggers()
    saved = [(logger.level, logger.propagate) for logger in loggers]
    handler = _ArtifactLogHandler(
        {
            logger.name: logger.getEffectiveLevel() if logger.propagate else None
            for logger in loggers
        }
    )
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
        logger.propagate = False
    try:
        yield
    finally:
        for logger, (level, propagate) in zip(loggers, saved):
            logger.removeHandler(handler)
            logger.setLevel(level)
            logger.propagate = propagate


@contextlib.contextmanager
def _recording_warnings() -> Any:
    """Some compile-stack decisions only surface as Python warnings (e.g. a missed CUDA-graph
    fast path); record them as ``python_warning`` events, still showing them as usual. A
    warning raised at a line of tcexplore's own is about tcexplore's work, not the user's
    code: neither recorded nor shown."""
    shown = warnings.showwarning
    own = [own_package()]

    def showwarning(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001
        if is_library(str(filename), own):
            return
        try:
            _deliver(
                {
                    "python_warning": {
                        "category": category.__name__,
                        "message": str(message),
                        "file": filename,
                        "line": lineno,
                    },
                    **_torch_compat.current_compile_id(),
                },
                None,
            )
        except Exception as exc:  # noqa: BLE001
            _report(exc)
        shown(message, category, filename, lineno, file, line)

    warnings.showwarning = showwarning
    try:
        yield
    finally:
        # Someone who replaced it meanwhile (warnings.catch_warnings) puts back their own.
        if warnings.showwarning is showwarning:
            warnings.showwarning = shown


@contextlib.contextmanager
def _hearing_dynamo() -> Any:
    """What Dynamo tells its hooks rather than its trace: each transformed frame's code
    objects (capture/bytecode_hook.py) and, where the user runs torch's tracing profiler, the
    time spent tracing each user function; both as events of the compile torch is in."""

    def on_bytecode(code: Any, modified: Any, side_effects: Any) -> None:
        try:
            _deliver(bytecode_record(code, modified, side_effects), None)
        except Exception as exc:  # noqa: BLE001 - never disturb the compile
            _report(exc)

    def on_timings(timings: list[dict[str, Any]]) -> None:
        try:
            _deliver(
                {"dynamo_profiler": {"timings": timings}, **_torch_compat.current_compile_id()},
                None,
            )
        except Exception as exc:  # noqa: BLE001
            _report(exc)

    with _torch_compat.bytecode_hook(on_bytecode), _torch_compat.tracing_profiler(on_timings):
        yield
