"""Host timers at each entry of a run's first compiled frame: every step of the run, those
outside the profiler's windows timed without it (``tcexplore run --profile``,
``capture(profile=True)``).

A step starts at each entry of the first compiled frame that runs (as the run view tells
steps from the profiler's ranges, measure/run_pieces.py). Dynamo's transformed code calls
each compile's graph through a module global (``_torch_compat.new_graph_globals``); once
a compile ends, its global is swapped for a timer that notes the time, when the frame is
the first one, and calls through. The timer costs one Python call per graph call, measured
here (:meth:`StepMarkers.cost_us`) and stated with the figures. A step during which torch
compiled (any trace event) is marked; the globals are put back by :meth:`restore` (one a
``torch.compiler.reset()`` removed meanwhile stays removed). torch's global optimizer
step hooks (``torch.optim.optimizer.register_optimizer_step_pre_hook`` and ``_post_``)
time each optimizer step the same way: the eager optimizer's own time, unprofiled. While
a profiler window records, ``on_step`` numbers each step in the profile
(measure/run_profile.py's ``RunProfile``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from torch.optim import optimizer as optim

from .. import _torch_compat

CALIBRATION_CALLS = 2000


class StepMarkers:
    """Each step's start (``starts``, ``time.perf_counter`` seconds), the steps that
    compiled, and ``on_step(index)`` called as each step starts."""

    def __init__(self, on_step: Callable[[int], None] | None = None) -> None:
        self.starts: list[float] = []
        self.compiled: set[int] = set()
        self.first_frame: int | None = None
        self.graph_calls = 0
        self._on_step = on_step
        self._seen: set[int] = set()
        self._swapped: list[tuple[dict[str, Any], str, Any, Any]] = []
        # (optimizer class, start, end) of each optimizer step
        self.optimizer_steps: list[tuple[str, float, float]] = []
        self._began: dict[int, float] = {}
        self._hooks = [
            optim.register_optimizer_step_pre_hook(self._step_began),
            optim.register_optimizer_step_post_hook(self._step_ended),
        ]

    def _step_began(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        self._began[id(optimizer)] = time.perf_counter()

    def _step_ended(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        began = self._began.pop(id(optimizer), None)
        if began is not None:
            self.optimizer_steps.append((type(optimizer).__name__, began, time.perf_counter()))

    def heard(self, frame_id: int | None, compile_ended: bool) -> None:
        """A trace event: torch is compiling in the current step; at a compile's end its
        graph's global is timed from then on."""
        if self.starts:
            self.compiled.add(len(self.starts) - 1)
        if compile_ended and isinstance(frame_id, int):
            for scope, name in _torch_compat.new_graph_globals(self._seen):
                timer = self._timer(scope[name], frame_id)
                self._swapped.append((scope, name, scope[name], timer))
                scope[name] = timer

    def _timer(self, graph: Callable[..., Any], frame_id: int) -> Callable[..., Any]:
        clock, starts, markers = time.perf_counter, self.starts, self

        def timed_graph_call(*args: Any, **kwargs: Any) -> Any:
            markers.graph_calls += 1
            if markers.first_frame is None:
                markers.first_frame = frame_id
            if markers.first_frame == frame_id:
                starts.append(clock())
                if markers._on_step is not None:
                    markers._on_step(len(starts) - 1)
            return graph(*args, **kwargs)

        return _torch_compat.never_traced(timed_graph_call)

    def restore(self) -> None:
        for handle in self._hooks:
            handle.remove()
        self._hooks.clear()
        for scope, name, graph, timer in reversed(self._swapped):
            if scope.get(name) is timer:
                scope[name] = graph
        self._swapped.clear()

    def steady(self, left_out: set[int] = frozenset()) -> list[int]:
        """The steps that compiled nothing, less those in ``left_out`` (the profiled
        ones); the last step, whose end no timer tells, is left out."""
        return [
            i for i in range(len(self.starts) - 1) if i not in self.compiled and i not in left_out
        ]

    def durations(self, steps: list[int]) -> list[float]:
        """The ``steps``' durations (s)."""
        return [self.starts[i + 1] - self.starts[i] for i in steps]

    def optimizer_us(self, steps: list[int]) -> dict[str, float]:
        """Per optimizer class, its steps' time per step over ``steps`` (each one whose
        optimizer step lies within one of them counts)."""
        if not steps:
            return {}
        bounds = [(self.starts[i], self.starts[i + 1]) for i in steps]
        found: dict[str, float] = {}
        for name, began, ended in self.optimizer_steps:
            if any(start <= began and ended <= end for start, end in bounds):
                found[name] = found.get(name, 0.0) + (ended - began) * 1e6
        return {name: total / len(steps) for name, total in found.items()}

    def cost_us(self) -> float:
        """One graph call's timer, µs: a first frame's (the dearer path, ``on_step``
        included, as it runs outside the profiler), measured on a no-op against the no-op
        alone."""
        probe = StepMarkers(self._on_step)
        probe.restore()
        probe.first_frame = 0
        timed = probe._timer(_noop, 0)
        bare = _per_call(_noop)
        return max(0.0, (_per_call(timed) - bare) * 1e6)


def _noop() -> None:
    return None


def _per_call(fn: Callable[[], Any]) -> float:
    samples = []
    for _ in range(5):
        began = time.perf_counter()
        for _ in range(CALIBRATION_CALLS):
            fn()
        samples.append((time.perf_counter() - began) / CALIBRATION_CALLS)
    return statistics.median(samples)
