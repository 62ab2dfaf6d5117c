"""``tcexplore.capture``: capture/'s ``capture()``, its session's ``.document`` the data
with its decisions (``tcexplore.decided.Document``), and with ``profile=True`` the block
run under ``torch.profiler`` too, as ``tcexplore run --profile`` runs a script
(measure/run_profile.py's ``RunProfile``): the document gets its ``profile`` when the block
ends, steps told as a whole run tells them. capture/ records; measuring and deciding live
above it.

Importing this module loads no torch, nor the findings and renderers (``import tcexplore``
binds ``capture`` from it): a session's document loads them when first asked for.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from ..capture import CaptureSession
from ..capture import capture as capture_only
from ..capture.events import Event


class Session(CaptureSession):
    """The session ``tcexplore.capture()`` yields: capture/'s :class:`CaptureSession`
    (``.events``, ``.data``), with ``.document``: its data so far as a
    ``tcexplore.Document``, its findings, labels and verdicts decided."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._decided: tuple[dict[str, Any], Any] | None = None

    @property
    def document(self) -> Any:
        """The document so far (a ``tcexplore.Document``, with its findings and labels)."""
        from ..decided import Document  # noqa: PLC0415 - loaded when first asked for

        data = self.data
        if self._decided is None or self._decided[0] is not data:
            self._decided = (data, Document.built(dict(data)))
        return self._decided[1]


@contextlib.contextmanager
def capture(
    *,
    bypass_caches: bool = False,
    on_event: Callable[[Event], None] | None = None,
    profile: bool = False,
    explored: bool = False,
) -> Iterator[Session]:
    """Record every torch.compile inside the block, in any thread.

    Compiles use Inductor's FX-graph and AOTAutograd caches as the program would without
    the capture (cache directories, ``save_cache_artifacts``/``load_cache_artifacts``,
    warm starts): a hit is recorded as such (``status: "cache_hit"``), with its Dynamo
    graph, guards, post-grad graph and output code, and its ``cache_hit`` note says what a
    hit could not show. ``bypass_caches=True`` is a cold capture: every compile in the
    block misses those caches, so every view is complete, but the program then compiles
    as it would not without tcexplore (a warm start through ``load_cache_artifacts`` may
    fail).

    These settings apply to the thread that opens the block (torch keeps them per thread);
    a compile that runs in another thread meanwhile is recorded too, with
    ``without_capture_settings`` naming what it lacked and where it ran. Open a capture in
    that thread as well to give it the settings.

    ``profile=True`` runs the block under ``torch.profiler``, every generated kernel timed,
    as ``tcexplore run --profile`` runs a script: the document's ``profile`` (kernels by
    line, and ``profile.run``: each compile's entries and time, the eager gaps put down to
    the graph breaks that made them, where each entry of the first compiled frame starts a
    step) is added when the block ends, whether or not it raised. A profile that fails
    costs only itself (an entry of ``capture.unread``). ``explored``: the block's compiles
    are tcexplore's own (capture/'s).
    """
    if not profile:
        with capture_only(
            bypass_caches=bypass_caches,
            on_event=on_event,
            explored=explored,
            session_type=Session,
        ) as session:
            yield session
        return
    from .run_profile import RunProfile  # noqa: PLC0415 - torch, only when profiling

    profiler = RunProfile()

    def heard(event: Event) -> None:
        profiler.on_event(event)  # instruments each output module as it loads
        if on_event is not None:
            on_event(event)

    session = None
    try:
        with (
            capture_only(
                bypass_caches=bypass_caches,
                on_event=heard,
                explored=explored,
                session_type=Session,
            ) as session,
            profiler.recording(),
        ):
            yield session
    finally:
        if session is not None:
            session.add_section("profile", profiler.section)
