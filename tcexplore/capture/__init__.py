"""In-process capture of torch.compile's structured trace.

``capture()`` listens to torch's trace logger (the stream behind ``TORCH_TRACE``), so no
environment variable is needed and it works in a running kernel. Everything it changes is
put back on exit, however the block ends; captures may overlap, also in several threads
(``listeners`` holds what they share).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from .. import _torch_compat
from ..common.contained import Unread, error_text
from ..document import error_record, new_document
from . import earlier_entries, listeners
from .assemble import Assembler
from .custom_ops import record_custom_ops
from .distributed import launcher, process_group
from .events import Event, compile_id
from .library_files import library_files
from .not_compiled import from_skip_reasons
from .own_entries import drop_own_entries

__all__ = ["capture", "CaptureSession"]

# What a compile needs of capture_settings(), as the document names it when it was missing.
PROVENANCE, CACHE_BYPASS = "provenance", "cache_bypass"


class CaptureSession:
    """The events recorded inside one ``capture()`` block; ``.data`` assembles them into a
    document's data (the public ``tcexplore.capture``'s session also has ``.document``:
    that data with its decisions, measure/profiled_capture.py)."""

    def __init__(
        self,
        bypass_caches: bool,
        on_event: Callable[[Event], None] | None,
        explored: bool = False,
    ):
        import torch  # noqa: PLC0415 - when a capture opens: `import tcexplore` loads no torch

        self.bypass_caches = bypass_caches
        self.caches = _torch_compat.cache_settings()  # the user's, before capture sets any
        self.explored = explored  # its compiles are tcexplore's own (explore(), a cell)
        self.serial = earlier_entries.next_serial()
        self._cache_heard: list[tuple[str, str | None, str | None]] = []  # event, dir, payload
        # A hook (the notebook's live progress: IPython's display, ipykernel, zmq) can run
        # while Dynamo watches frames (a backward compiled lazily inside the user's step):
        # with Dynamo off, none of its frames is listed as the user's, not compiled.
        self.on_event = torch.compiler.disable(on_event) if on_event is not None else None
        self.error: dict[str, Any] | None = None
        self._failed: list[dict[str, Any]] = []  # records unread, listeners that raised
        self.distributed: dict[str, Any] | None = None
        self._records: list[tuple[dict[str, Any], str | None]] = []  # as torch logged them
        self._events: list[Event] = []
        self._read = 0  # records turned into events so far
        self._data: dict[str, Any] | None = None
        self._data_events = -1
        self._without_settings: dict[str, dict[str, list[str]]] = {}  # compile id -> what
        self.skip_reasons: list[str] = []  # Dynamo's, in the capturing thread (at exit)
        self._sections: dict[str, Any] = {}  # measured over the block by a layer above

    def add(self, metadata: dict[str, Any], payload: str | None) -> None:
        # Only keep the record while torch compiles; reading it waits until it is asked for.
        self._records.append((metadata, payload))
        cache_event = earlier_entries.cache_event(metadata)
        if cache_event is not None:  # its directory is known only now
            self._cache_heard.append((cache_event, earlier_entries.directory(), payload))
        if self.distributed is None:
            self.distributed = process_group()
        if self.on_event is not None:
            self.on_event(Event.from_record(metadata, payload))

    def check_settings(
        self, metadata: dict[str, Any], effect: dict[str, bool | None], thread: str
    ) -> None:
        """Note a compile that runs without what this capture set (in another thread)."""
        missing = [
            name
            for name, lacking in (
                (PROVENANCE, effect["provenance"] is False),
                (CACHE_BYPASS, self.bypass_caches and effect["caches"]),
            )
            if lacking
        ]
        cid = compile_id(
            metadata.get("frame_id"),
            metadata.get("frame_compile_id"),
            metadata.get("compiled_autograd_id"),
        )
        if missing and cid is not None:
            entry = self._without_settings.setdefault(cid, {"settings": [], "threads": []})
            for key, values in (("settings", missing), ("threads", [thread])):
                entry[key] += [v for v in values if v not in entry[key]]

    @property
    def events(self) -> list[Event]:
        """Every event recorded so far, in order."""
        for metadata, payload in self._records[self._read :]:
            self._read += 1
            try:
                self._events.append(Event.from_record(metadata, payload))
            except Exception as exc:  # noqa: BLE001 - one unreadable record loses only itself
                self._failed.append(
                    {
                        "reason": "bad_envelope",
                        "kind": None,
                        "error": error_text(exc),
                        "read": metadata,
                    }
                )
        return self._events

    def remember_written_entries(self) -> None:
        """The entries this capture's misses wrote are tcexplore's (an explored capture)."""
        earlier_entries.remember(self.serial, self._cache_heard)

    def listener_failed(self, exc: Exception) -> None:
        """A listener of torch's that raised: the event it was hearing is lost, alone."""
        self._failed.append(
            {
                "reason": "handler",
                "kind": "capture listener",
                "error": error_text(exc),
                "read": None,
            }
        )

    def add_section(self, name: str, make: Callable[[dict[str, Any]], Any]) -> None:
        """A section of the document made from its data by a layer above, once the block
        ended (``tcexplore.capture(profile=True)``'s profile); one that fails costs only
        itself: an entry of ``capture.unread``."""
        data = self.data
        try:
            self._sections[name] = make(data)
        except Exception as exc:  # noqa: BLE001 - the capture is kept without it
            self._failed.append(
                {"reason": "section", "kind": name, "error": error_text(exc), "read": None}
            )
            self._data = None  # built again, with the failure
            return
        # ``make`` may have noted in the data what it could not read (capture.unread): kept
        self._data = {**data, name: self._sections[name]}

    def record_error(self, exc: BaseException) -> None:
        self.error = error_record(exc)

    @property
    def data(self) -> dict[str, Any]:
        """The document's data so far (a new dict whenever it changed), before any decision."""
        events = self.events
        if self._data is None or self._data_events != len(events):
            unread = Unread()
            for failed in self._failed:
                unread.add(
                    failed["reason"], failed["kind"], error=failed["error"], read=failed["read"]
                )
            assembler = Assembler(_torch_compat.interned_filenames(), unread)
            for event in events:
                assembler.feed(event)
            assembled = assembler.finish()
            with unread.contain("section", "own_entries"):
                drop_own_entries(assembled["compiles"])
            with unread.contain("section", "custom_ops"):
                record_custom_ops(assembled["compiles"])
            not_compiled = None
            with unread.contain("section", "not_compiled"):
                not_compiled = from_skip_reasons(self.skip_reasons)
                # the frames torch skipped are often library code (a module's forward)
                marked = set(assembled.get("library_files") or []) | set(
                    library_files(not_compiled)
                )
                assembled["library_files"] = sorted(marked)
            earlier = earlier_entries.mark(self.serial, self._cache_heard)
            for record in assembled["compiles"]:
                for entry in record["cache"]:
                    if entry.get("result") == "hit" and entry.get("key") in earlier:
                        entry["earlier_exploration"] = True
                if record["id"] in self._without_settings:
                    record["without_capture_settings"] = {
                        key: list(values)
                        for key, values in self._without_settings[record["id"]].items()
                    }
            sections = {"not_compiled": not_compiled, **self._sections}
            self._data = new_document(
                **assembled,
                capture={
                    "source": "live",
                    "bypass_caches": self.bypass_caches,
                    "caches": self.caches,
                    "events": len(events),
                    "unread": unread.section(),
                },
                error=self.error,
                distributed=self.distributed or launcher(),
            )
            self._data.update({k: v for k, v in sections.items() if v is not None})
            self._data_events = len(events)
        return self._data


@contextlib.contextmanager
def capture(
    *,
    bypass_caches: bool = False,
    on_event: Callable[[Event], None] | None = None,
    explored: bool = False,
    session_type: type[CaptureSession] = CaptureSession,
) -> Iterator[CaptureSession]:
    """Record every torch.compile inside the block, in any thread.

    Compiles use Inductor's FX-graph and AOTAutograd caches as the program would without
    the capture (cache directories, ``save_cache_artifacts``/``load_cache_artifacts``,
    warm starts): a hit is recorded as such (``status: "cache_hit"``), with its Dynamo
    graph, guards, post-grad graph and output code, and its ``cache_hit`` note says what a
    hit could not show. ``bypass_caches=True`` is a cold capture: the two caches are
    skipped for the compiles inside the block, so every compile runs in full and every
    view is complete, but the program then compiles as it would not without tcexplore.

    These settings apply to the thread that opens the block (torch keeps them per thread);
    a compile that runs in another thread meanwhile is recorded too, with
    ``without_capture_settings`` naming what it lacked and where it ran. Open a capture in
    that thread as well to give it the settings.

    ``explored``: the block's compiles are tcexplore's own compiles of the user's code
    (explore(), a ``%%tcompile`` cell), which a later capture's hits on what they wrote
    must not be taken for the user's warm start (capture/earlier_entries.py).
    ``session_type``: the session yielded (a layer above adds what it offers, such as the
    decided ``.document`` of the public ``tcexplore.capture``).
    """
    session = session_type(bypass_caches, on_event, explored)
    with _torch_compat.capture_settings(bypass_caches), _torch_compat.skip_reasons() as skipped:
        session.skip_reasons = skipped
        listeners.open_session(session)
        try:
            yield session
        except BaseException as exc:
            session.record_error(exc)
            raise
        finally:
            listeners.close_session(session)
            if explored:
                session.remember_written_entries()
            if session.distributed is None:  # a group created after the last event
                session.distributed = process_group()
