"""A ``%%tcompile`` cell as the pipeline's subject (measure/pipeline.py), and its run.

The real run is the compiled cell on the user's own objects (its prints, its in-place
updates and the names it binds are what the notebook keeps); the tensors it reads are
copied before it, for the eager run and every later one. What the cell compares is what it
returns: the value of its last expression and the plain-data names it binds. Everything
else (the eager run from the state the real run started from, accuracy, timing, memory,
profile, the divergence search, the state left as the real run made it, the tries) is the
pipeline's, as for ``explore()``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from ..capture.events import Event
from ..measure.cloned_inputs import clone_tensors
from ..measure.exploration import Exploration
from ..measure.output_diff import diff_named
from ..measure.pipeline import Plan, run
from ..measure.subject import Arguments, Subject
from ..measure.timing import uses_cuda
from .cell import CellFunction, is_plain_data

RESULT_KEY = "last expression"  # the cell's value, among the compared outputs


@dataclass
class CellRun:
    exploration: Exploration
    result: Any  # the value of the cell's last expression (None when it has none)
    values: dict[str, Any]  # names the cell bound
    error: BaseException | None  # the user's exception, to be raised again


def cell_uses_cuda(args: tuple[Any, ...]) -> bool:
    """A cell may reach the GPU only through globals (a model on CUDA, tensors it creates):
    once CUDA is in use in this process, time with device syncs and keep its RNG aligned."""
    return uses_cuda(args) or (torch.cuda.is_available() and torch.cuda.is_initialized())


class CellSubject(Subject):
    """The cell's function (notebook/cell.py) on the names it reads, compiled as the user's
    own compile: its real run is the user's, so its compiles are recorded as they are."""

    noun = "cell"
    profile_step = "cell"
    keeps_effects = True
    eager_heard = False  # the cell's prints show once, from its real run
    fallback_random_option = """--options '{"fallback_random": true}'"""

    def __init__(
        self,
        cell: CellFunction,
        namespace: dict[str, Any],
        compiled: Callable[..., Any],
        sections: Callable[[dict[str, Any]], dict[str, Any]],
    ):
        args = cell.arguments(namespace)
        super().__init__(cell.fn, args, {}, compiled, cell_uses_cuda(args))
        self.cell = cell
        self._sections = sections

    def start_values(self) -> Arguments:
        return clone_tensors(self.args), {}

    def real_arguments(self, start: Arguments) -> Arguments:
        return self.args, {}

    def outputs(self, eager: Any, real: Any) -> list[dict[str, Any]]:
        return diff_named(self._compared(eager), self._compared(real))

    def _compared(self, returned: tuple[Any, tuple[Any, ...]]) -> dict[str, Any]:
        named = self.cell.named_values(returned)
        values = {name: v for name, v in named.items() if is_plain_data(v)}
        return {RESULT_KEY: returned[0], **values} if self.cell.has_result else values

    def inputs_of(self, args: Arguments) -> dict[str, Any]:
        return self.cell.inputs_of(args[0])

    def sections(self, data: dict[str, Any]) -> dict[str, Any]:
        return self._sections(data)

    def raised(self, exc: BaseException) -> BaseException:
        # Recorded by capture() from the cell's own frame on, not tcexplore's.
        return self.cell.from_cell(exc)


def run_cell(
    cell: CellFunction,
    namespace: dict[str, Any],
    compiled: Callable[..., Any],
    *,
    compile_kwargs: dict[str, Any],
    sections: Callable[[dict[str, Any]], dict[str, Any]],
    eager: bool = True,
    time_budget_s: float = 1.0,
    on_event: Callable[[Event], None] | None = None,
    on_stage: Callable[[str], None] = lambda stage: None,
    profile: bool = False,
    memory: bool = False,
    try_fixes: bool = False,
    bypass_caches: bool = False,
) -> CellRun:
    """``sections(document data)`` gives fields for the document's ``explore`` section
    (the cells' source labels and sources); ``on_event`` sees every trace event and
    ``on_stage`` hears of the steps after the compile (measuring, searching, profiling);
    ``bypass_caches``: a cold capture (capture()'s)."""
    plan = Plan(
        compile_kwargs,
        time_budget_s=time_budget_s,
        eager=eager,
        profile=profile,
        memory=memory,
        try_fixes=try_fixes,
        bypass_caches=bypass_caches,
        on_event=on_event,
        on_stage=on_stage,
    )
    outcome = run(CellSubject(cell, namespace, compiled, sections), plan)
    if outcome.error is not None:
        values = cell.locals_at_error(outcome.error)
        return CellRun(outcome.exploration, None, values, outcome.error)
    returned = outcome.returned
    return CellRun(outcome.exploration, returned[0], cell.named_values(returned), None)
