"""The run-scope profiler: ``tcexplore run --profile`` and ``capture(profile=True)``.

It profiles a script's first steady steps, and again those after each later compile
(times summed over them; :class:`RunProfile`), and times the rest without it. Its kernel
rows and its ``profile`` are made as ``explore(profile=True)``'s are (measure/kernel_rows.py's
``attribute``, measure/profile.py's ``finish``).
"""

from __future__ import annotations

import contextlib
import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import torch
from torch.autograd import DeviceType
from torch.profiler import profile, record_function

from ..capture.parsers.output_code import parse_output_code
from .instrument import Instrument
from .kernel_rows import attribute
from .native_stderr import without_native_noise
from .profile import activities, finish
from .run_pieces import STEP_RANGE, WINDOW_RANGE, marked_steps
from .run_view import with_run
from .step_markers import StepMarkers

# Steady steps a run's profiler window records after its last compile before it stops (the
# rest are timed without it).
PROFILED_STEPS = 5
COMPILE_END = "compilation_metrics"  # the trace event that ends a Dynamo compile


@dataclass
class _Window:
    """One stretch of a run under the profiler: from ``first`` (the first step it can
    record whole) to the step it stopped in; ``origin_us``: its clock's offset from the
    host's (``time.perf_counter``, µs), told by a range at its start."""

    profiler: Any
    first: int
    stopped_at: int | None = None
    origin_us: float = 0.0


class RunProfile:
    """``tcexplore run --profile``, ``capture(profile=True)``: the run under the profiler
    in windows, each until it has recorded ``profiled_steps`` steady steps after its last
    compile (a step: an entry of the first compiled frame), then without it. A window opens
    with the run and again at the first trace event after one stopped (torch compiles:
    the code a run's later steps run may be new), on the thread that opened the first.
    Host timers at each step's start (measure/step_markers.py) see every step, and number
    each one a window records (a ``tcexplore step #<n>`` range), so the steps outside the
    windows give the run's own time per step. Each output module is instrumented as soon
    as it is loaded (by the next trace event after its code), while a window records."""

    def __init__(self, profiled_steps: int = PROFILED_STEPS) -> None:
        self.cuda = torch.cuda.is_available()
        self._instrument = Instrument()
        self._pending: list[tuple[str, list[dict[str, Any]]]] = []
        self._started = 0.0
        self._profiled_steps = profiled_steps
        self.markers = StepMarkers(self._on_step)
        self.windows: list[_Window] = []
        self._recording: int | None = None  # the recording thread, while recording
        self._opening = False  # a window is being opened (_open)
        self._events: list[Any] | None = None

    def _open(self) -> None:
        """A window opens: the profiler starts, the kernels' wrappers go back in. What is
        heard meanwhile on this thread is the opening's own doing (on a GPU, torch 2.11's
        profiler start was seen to reach the trace hook and open a second window, never
        closed, over every step): ignored, as is a window already open."""
        if self._window is not None or self._opening:
            return
        window = _Window(profile(activities=activities(self.cuda)), len(self.markers.starts))
        self.windows.append(window)
        self._opening = True
        try:
            with without_native_noise():
                window.profiler.start()
            with record_function(WINDOW_RANGE):
                window.origin_us = time.perf_counter() * 1e6
            self._instrument.resume()
        except BaseException:
            self.windows.remove(window)
            raise
        finally:
            self._opening = False

    def _close(self, index: int) -> None:
        window = self.windows[-1]
        window.stopped_at = index
        self._instrument.pause()
        with without_native_noise():
            window.profiler.stop()

    @property
    def _window(self) -> _Window | None:
        """The window recording now, if any."""
        return self.windows[-1] if self.windows and self.windows[-1].stopped_at is None else None

    def on_event(self, event: Any) -> None:
        if self._opening and self._recording == threading.get_ident():
            return  # the window's own opening (_open)
        self.markers.heard(event.frame_id, event.kind == COMPILE_END)
        if self._window is None:
            if self._recording != threading.get_ident():
                return
            self._open()
        if self._pending:
            self._pending = [(p, k) for p, k in self._pending if not self._instrument.install(p, k)]
        if event.kind == "inductor_output_code" and isinstance(event.data, dict):
            path = event.data.get("filename")
            if path:
                self._pending.append((path, parse_output_code(event.payload or "")["kernels"]))

    def _on_step(self, index: int) -> None:
        """A step starts: numbered in the window; the window closes once the steps since
        its last compile hold enough steady ones (this step's start ends the last)."""
        window = self._window
        if window is None:
            return
        with record_function(f"{STEP_RANGE}{index}"):
            pass
        compiled = self.markers.compiled
        since = max([window.first, *(i + 1 for i in compiled if i < index)])
        if sum(1 for i in range(since, index) if i not in compiled) >= self._profiled_steps:
            self._close(index)

    @contextlib.contextmanager
    def recording(self) -> Iterator[None]:
        self._started = time.perf_counter()
        self._recording = threading.get_ident()
        self._open()
        try:
            yield
        finally:
            self._recording = None
            self.markers.restore()
            if self._window is not None:
                self._instrument.pause()
                with without_native_noise():
                    self.windows[-1].profiler.stop()
            self._instrument.restore()

    def events(self) -> list[Any]:
        """Every window's events (after :meth:`recording`), on the host's clock (µs)."""
        if self._events is None:
            self._events = []
            for window in self.windows:
                events = list(window.profiler.events())
                anchor = next((e for e in events if e.name == WINDOW_RANGE), None)
                shift = window.origin_us - anchor.time_range.start if anchor else 0.0
                for event in events:
                    event.time_range.start += shift
                    event.time_range.end += shift
                self._events += events
        return self._events

    def _profiled(self) -> set[int]:
        """The steps a window recorded (the one it stopped in included)."""
        last = len(self.markers.starts) - 1
        return {
            i
            for w in self.windows
            for i in range(w.first, (last if w.stopped_at is None else w.stopped_at) + 1)
        }

    def unprofiled(self) -> dict[str, Any]:
        """The steps timed without the profiler: those no window recorded that compiled
        nothing (the last, whose end nothing tells, left out)."""
        profiled = self._profiled()
        steps = self.markers.steady(profiled)
        durations = self.markers.durations(steps)
        return {
            "per_step_us": statistics.mean(durations) * 1e6 if durations else None,
            "steps": len(durations),
            "profiled_steps": len(profiled - self.markers.compiled),
            "marker_us": self.markers.cost_us(),
            "optimizer_us": self.markers.optimizer_us(steps),
            "graph_calls_per_step": self.markers.graph_calls / max(len(self.markers.starts), 1),
            "basis": "markers",
            "windows": [[w.first, w.stopped_at] for w in self.windows],
            "window_steps": self._profiled_steps,
        }

    def marked(self) -> dict[str, Any]:
        """What the markers saw of every step, for the run view."""
        return {
            "count": len(self.markers.starts),
            "compiled": sorted(self.markers.compiled),
            "stops": [w.stopped_at for w in self.windows if w.stopped_at is not None],
        }

    def section(self, document: dict[str, Any]) -> dict[str, Any]:
        cost_s = time.perf_counter() - self._started
        events = self.events()
        marked = self.marked()
        cpu = [e for e in events if e.device_type == DeviceType.CPU]
        whole, _ = marked_steps(cpu, set(marked["stops"]))
        run = attribute(
            events,
            self._instrument.sites,
            document,
            1,
            self.cuda,
            within=list(whole.values()) if marked["count"] else None,
        )
        wall = (
            run["region_us"] or sum(r["time_us"] for r in run["kernels"]),
            "the run's compiled regions and compiled graph calls (the backward's included) "
            "in the steps the profiler recorded whole",
        )
        section = finish(document, run, wall, scope="run", profiled_calls=1, cost_s=cost_s)
        return with_run(
            section,
            events,
            document,
            by_calls=False,
            cuda=self.cuda,
            unprofiled=self.unprofiled(),
            marked=marked,
        )
