"""What the pipeline (measure/pipeline.py) measures: a callable on its arguments, how it is
compiled, which of its results are compared with eager's, and whose its real call is.

Two kinds: a function ``explore()`` is given (:class:`FunctionSubject`: compiled apart
from the user's compiles, its real call on copies, everything it reaches put back after)
and a ``%%tcompile`` cell (notebook/run.py's ``CellSubject``: compiled as the user's own,
its real call on the user's objects, its effects kept once). The pipeline's steps ask the
subject only these questions; every rule of measuring is the pipeline's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from .. import _torch_compat
from ..capture.not_compiled import nothing_compiled
from ..capture.notebook_cells import notebook_cell_sections
from ..decided import Document
from .cloned_inputs import clone_tensors
from .foreign_entries import without_foreign_entries
from .output_diff import diff_outputs
from .snapshot import bound_arguments
from .timing import uses_cuda

Arguments = tuple[tuple[Any, ...], dict[str, Any]]


class Subject:
    """A callable the pipeline measures. The defaults are a function's; a cell overrides."""

    noun = "function"  # what the progress calls it
    profile_step = "call"  # what a step of the run view is (measure/profile.py)
    keeps_effects = False  # its real call is the user's own: their objects, its effects kept
    eager_heard = True  # the eager call's prints are the user's (explore() asked for both)
    fallback_random_option: str | None = None  # how its caller spells Inductor's option

    def __init__(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        compiled: Callable[..., Any],
        cuda: bool,
    ):
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.compiled = compiled
        self.cuda = cuda

    def start_values(self) -> Arguments:
        """The arguments as the real call starts, which no run of the pipeline changes."""
        return self.args, self.kwargs

    def real_arguments(self, start: Arguments) -> Arguments:
        """What the real call runs on: copies of ``start``, or the user's own objects."""
        return clone_tensors(start)

    def compiling(self) -> AbstractContextManager[Any]:
        """Around the capture: what the compile needs of the process's state."""
        return contextlib.nullcontext()

    def outputs(self, eager: Any, real: Any) -> list[dict[str, Any]]:
        """The accuracy's ``outputs`` rows: what a call returned, eager against real."""
        return diff_outputs(eager, real)

    def inputs_of(self, args: Arguments) -> dict[str, Any]:
        """The inputs a call may have mutated, by the names the function gives them,
        compared after the calls."""
        return dict(bound_arguments(self.fn, *args))

    def recorded(self, document: Document) -> Document:
        """What the capture recorded, as this subject's document."""
        return document

    def sections(self, data: dict[str, Any]) -> dict[str, Any]:
        """Fields of the ``explore`` section naming notebook cells (labels, sources)."""
        return notebook_cell_sections(data)

    def raised(self, exc: BaseException) -> BaseException:
        """The user's exception as it is raised again (a cell trims tcexplore's frames)."""
        return exc


class FunctionSubject(Subject):
    """``explore(fn, *args, **kwargs)``: compiled with a backend and recompile region of its
    own, in automatic-dynamic state of its own, so that no compile of the user's serves or
    counts against it; nothing compiled is explained by the stance or disable decorator."""

    fallback_random_option = 'options={"fallback_random": True}'

    def __init__(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        compile_kwargs: dict[str, Any],
    ):
        compiled = _torch_compat.isolated_compile(fn, compile_kwargs)
        super().__init__(fn, args, kwargs, compiled, uses_cuda((args, kwargs)))
        self.stance = _torch_compat.compile_stance()
        self.disabled = _torch_compat.is_compile_disabled(fn)

    def compiling(self) -> AbstractContextManager[Any]:
        return _torch_compat.fresh_dynamic_state()

    def recorded(self, document: Document) -> Document:
        document = without_foreign_entries(document)
        if document.data["summary"]["graphs"]:
            return document
        return document.with_sections(
            not_compiled=nothing_compiled(
                self.fn, self.stance, self.disabled, document.data["not_compiled"]
            )
        )
