"""In-process capture of torch.compile's structured trace.

``capture()`` attaches a handler to torch's trace logger (the stream behind
``TORCH_TRACE``), so no environment variable is needed and it works in a running
kernel. Everything it changes is put back on exit, however the block ends.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from typing import Any, Callable, Iterator

from .. import _torch_compat
from ..document import Document, build_document, error_record
from .distributed import launcher, process_group
from .assemble import Assembler
from .bytecode import bytecode_record
from .events import Event

__all__ = ["capture", "CaptureSession"]


class CaptureSession:
    """The events recorded inside one ``capture()`` block; ``.document`` assembles them."""

    def __init__(self, bypass_caches: bool, on_event: Callable[[Event], None] | None):
        self.bypass_caches = bypass_caches
        self.on_event = on_event
        self.error: dict[str, Any] | None = None
        self.handler_errors: list[str] = []
        self.distributed: dict[str, Any] | None = None
        self._records: list[tuple[dict[str, Any], str | None]] = []  # as torch logged them
        self._events: list[Event] = []
        self._read = 0  # records turned into events so far
        self._document: Document | None = None
        self._document_events = -1

    def add(self, metadata: dict[str, Any], payload: str | None) -> None:
        # Only keep the record while torch compiles; reading it waits until it is asked for.
        self._records.append((metadata, payload))
        if self.distributed is None:
            self.distributed = process_group()
        if self.on_event is not None:
            self.on_event(Event.from_record(metadata, payload))

    @property
    def events(self) -> list[Event]:
        """Every event recorded so far, in order."""
        for metadata, payload in self._records[self._read:]:
            self._read += 1
            try:
                self._events.append(Event.from_record(metadata, payload))
            except Exception as exc:  # noqa: BLE001 - one unreadable record loses only itself
                self.handler_errors.append(f"{type(exc).__name__}: {exc}")
        return self._events

    def record_error(self, exc: BaseException) -> None:
        self.error = error_record(exc)

    @property
    def document(self) -> Document:
        events = self.events
        if self._document is None or self._document_events != len(events):
            assembler = Assembler(_torch_compat.interned_filenames())
            for event in events:
                assembler.feed(event)
            self._document = build_document(
                **assembler.finish(),
                capture={"source": "live", "bypass_caches": self.bypass_caches,
                         "events": len(events), "handler_errors": self.handler_errors},
                error=self.error,
                distributed=self.distributed or launcher(),
            )
            self._document_events = len(events)
        return self._document


class _TraceHandler(logging.Handler):
    def __init__(self, session: CaptureSession):
        super().__init__(level=logging.DEBUG)
        self.session = session

    def emit(self, record: logging.LogRecord) -> None:
        # Never let a capture problem reach torch.compile: keep it for the document instead.
        try:
            self.session.add(dict(getattr(record, "metadata", {}) or {}),
                             getattr(record, "payload", None))
        except Exception as exc:  # noqa: BLE001
            self.session.handler_errors.append(f"{type(exc).__name__}: {exc}")


class _ArtifactLogHandler(logging.Handler):
    """torch's CUDA-graph decisions and perf hints are log messages, not trace events:
    turn each into an event ``log_<artifact>`` tagged with the compile id torch is in.

    To hear DEBUG messages the logger's level is lowered and its propagation switched off
    for the capture; records the user would have seen anyway (at or above the logger's
    former effective level, when it propagated) are passed on to the parent as before.
    """

    def __init__(self, session: CaptureSession, passes_on: dict[str, int | None]):
        super().__init__(level=logging.DEBUG)
        self.session = session
        self.passes_on = passes_on  # logger name -> former effective level, None: silent

    def emit(self, record: logging.LogRecord) -> None:
        try:
            artifact = record.name.rpartition(".__")[2]
            metadata = {f"log_{artifact}": {"level": record.levelname,
                                            "message": record.getMessage()},
                        **_torch_compat.current_compile_id()}
            self.session.add(metadata, None)
        except Exception as exc:  # noqa: BLE001 - never disturb the compile
            self.session.handler_errors.append(f"{type(exc).__name__}: {exc}")
        threshold = self.passes_on.get(record.name)
        logger = logging.getLogger(record.name)
        if threshold is not None and record.levelno >= threshold and logger.parent:
            logger.parent.handle(record)


@contextlib.contextmanager
def _attached_to_artifact_logs(session: CaptureSession) -> Iterator[None]:
    loggers = _torch_compat.artifact_loggers()
    saved = [(logger.level, logger.propagate) for logger in loggers]
    handler = _ArtifactLogHandler(session, {
        logger.name: logger.getEffectiveLevel() if logger.propagate else None
        for logger in loggers})
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
def _recording_warnings(session: CaptureSession) -> Iterator[None]:
    """Some compile-stack decisions only surface as Python warnings (e.g. a missed CUDA-graph
    fast path); record them as ``python_warning`` events, still showing them as usual."""
    shown = warnings.showwarning

    def showwarning(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001
        try:
            session.add({"python_warning": {"category": category.__name__,
                                            "message": str(message), "file": filename,
                                            "line": lineno},
                         **_torch_compat.current_compile_id()}, None)
        except Exception as exc:  # noqa: BLE001
            session.handler_errors.append(f"{type(exc).__name__}: {exc}")
        shown(message, category, filename, lineno, file, line)

    warnings.showwarning = showwarning
    try:
        yield
    finally:
        warnings.showwarning = shown


@contextlib.contextmanager
def _hearing_dynamo(session: CaptureSession) -> Iterator[None]:
    """The two things Dynamo tells its hooks rather than its trace: each transformed frame's
    code objects, and (where torch has its tracing profiler) the time spent tracing each
    user function. Both become events of the compile torch is in."""
    def on_bytecode(code, modified, side_effects):  # noqa: ANN001 - torch's code objects
        try:
            session.add(bytecode_record(code, modified, side_effects), None)
        except Exception as exc:  # noqa: BLE001 - never disturb the compile
            session.handler_errors.append(f"{type(exc).__name__}: {exc}")

    def on_timings(timings: list[dict[str, Any]]) -> None:
        try:
            session.add({"dynamo_profiler": {"timings": timings},
                         **_torch_compat.current_compile_id()}, None)
        except Exception as exc:  # noqa: BLE001
            session.handler_errors.append(f"{type(exc).__name__}: {exc}")

    with _torch_compat.bytecode_hook(on_bytecode), _torch_compat.tracing_profiler(on_timings):
        yield


@contextlib.contextmanager
def capture(*, bypass_caches: bool = True,
            on_event: Callable[[Event], None] | None = None) -> Iterator[CaptureSession]:
    """Record every torch.compile inside the block.

    ``bypass_caches`` (default) skips the FX-graph and AOTAutograd caches for the compiles
    inside the block: on a cache hit torch replays stored code, so the kernels' provenance
    is missing and graphs carry the source lines of the run that filled the cache. With
    ``bypass_caches=False`` cache hits are recorded as such (``status: "cache_hit"``).
    """
    session = CaptureSession(bypass_caches, on_event)
    logger = _torch_compat.trace_logger()
    handler = _TraceHandler(session)
    saved_level, saved_handlers = logger.level, list(logger.handlers)
    with (_torch_compat.capture_settings(bypass_caches), _attached_to_artifact_logs(session),
          _recording_warnings(session), _hearing_dynamo(session)):
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
        try:
            yield session
        except BaseException as exc:
            session.record_error(exc)
            raise
        finally:
            if session.distributed is None:  # a group created after the last event
                session.distributed = process_group()
            # torch's LazyTraceHandler removes itself at the first event when TORCH_TRACE is
            # unset: put back the handlers as they were (in order), keeping any added meanwhile.
            added = [h for h in logger.handlers if h not in saved_handlers and h is not handler]
            for current in list(logger.handlers):
                logger.removeHandler(current)
            for previous in saved_handlers + added:
                logger.addHandler(previous)
            logger.setLevel(saved_level)
