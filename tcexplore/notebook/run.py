"""Run a compiled cell once for real, then measure it against eager on copies.

The real run is the compiled cell on the user's own objects (its prints, its in-place
updates and the names it binds are what the notebook keeps). For the comparison the
tensors it reads were copied before that run; the eager run starts from the same RNG
state as the real one, and afterwards the RNG is left where the real run left it, as if
the cell had run once. The eager run and the timing loops start from the state the real
run started from (modules, optimizers, tensors the cell reaches: :mod:`..measure.snapshot`)
and leave the state the real run made, so the cell's effects are one run's. Everything
runs inside one ``capture()``, so compiles triggered
by already-compiled models called in the cell are recorded too. ``--profile`` profiles runs
of the compiled cell after that capture closed (as explore() profiles calls), on copies and
from the state the real run made, which is put back afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from ..capture import capture
from ..capture.events import Event
from ..document import error_record
from ..measure.cloned_inputs import clone_tensors, rng_state
from ..measure.exploration import Exploration
from ..measure.first_divergence import find_first_divergence
from ..measure.gradients import gradient_rows, gradients_ok
from ..measure.output_diff import diff_named
from ..measure.profile import profile_calls
from ..measure.random_ops import explain_mismatch
from ..measure.snapshot import Snapshot, untouched
from ..measure.timing import first_call_seconds, measure, summarize, uses_cuda
from ..measure.unheard import quiet
from .cell import CellFunction, is_plain_data

RESULT_KEY = "last expression"  # the cell's value, among the compared outputs
# How %%tcompile takes Inductor's option to draw random numbers as eager does.
FALLBACK_RANDOM_OPTION = """--options '{"fallback_random": true}'"""


@dataclass
class CellRun:
    exploration: Exploration
    result: Any  # the value of the cell's last expression (None when it has none)
    values: dict[str, Any]  # names the cell bound
    error: BaseException | None  # the user's exception, to be raised again
    inputs: tuple[Any, ...]  # the cell's arguments as the real run started (copies, if eager)


def cell_uses_cuda(args: tuple[Any, ...]) -> bool:
    """A cell may reach the GPU only through globals (a model on CUDA, tensors it creates):
    once CUDA is in use in this process, time with device syncs and keep its RNG aligned."""
    return uses_cuda(args) or (torch.cuda.is_available() and torch.cuda.is_initialized())


def _compared(cell: CellFunction, returned: tuple[Any, tuple[Any, ...]]) -> dict[str, Any]:
    values = {name: v for name, v in cell.named_values(returned).items() if is_plain_data(v)}
    return {RESULT_KEY: returned[0], **values} if cell.has_result else values


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
    bypass_caches: bool = False,
) -> CellRun:
    """``sections(document data)`` gives fields for the document's ``explore`` section
    (the cells' source labels and sources); ``on_event`` sees every trace event and
    ``on_stage`` hears of the steps after the compile (measuring, searching, profiling);
    ``bypass_caches``: a cold capture (capture()'s)."""
    args = cell.arguments(namespace)
    cuda = cell_uses_cuda(args)
    before = clone_tensors(args) if eager else None
    start_state = Snapshot(cell.fn, args, {}) if eager else None
    isolation = None
    box: list[tuple[Any, tuple[Any, ...]]] = []
    error: BaseException | None = None
    measured: dict[str, Any] = {}
    try:
        with (
            capture(bypass_caches=bypass_caches, on_event=on_event, explored=True) as session,
            rng_state(cuda) as rewind_to_start,
        ):
            try:
                compile_s = first_call_seconds(lambda: box.append(compiled(*args)), cuda=cuda)
            except Exception as exc:  # noqa: BLE001
                # Recorded by capture() from the cell's own frame on, not tcexplore's.
                raise cell.from_cell(exc)  # noqa: B904 - the same exception, re-raised
            if eager:
                on_stage(f"running eager for accuracy and timing ({time_budget_s:g} s each)")
                with (
                    rng_state(cuda) as rewind_to_after_real,
                    quiet(),
                    untouched(cell.fn, args) as after_real,
                ):
                    try:
                        measured = _measure(
                            cell,
                            compiled,
                            before,
                            box[0],
                            args,
                            compile_s,
                            rewind_to_start,
                            cuda,
                            time_budget_s,
                            start_state,
                        )
                    finally:
                        rewind_to_after_real()
                isolation = after_real.report()
    except Exception as exc:  # noqa: BLE001 - the user's exception: shown, then raised again
        error = exc
    document = session.document
    cells = sections(document.data)
    profiled = None
    if profile and measured.get("timing") and document.data["summary"]["graphs"]:
        on_stage("profiling the compiled cell")
        # the run view's words name the cell's lines as the rest of the document does
        labelled = {**document.data, "explore": cells}
        profiled = _profile(cell, compiled, before, args, cuda, labelled, measured, time_budget_s)
    if measured.get("accuracy") is not None and not measured["accuracy"]["ok"]:
        on_stage("outputs differ: searching for the first diverging graph node")
        _first_divergence(
            cell, before, args, compile_kwargs, document.data, measured["accuracy"], start_state
        )
        explain_mismatch(
            measured["accuracy"],
            document.data,
            FALLBACK_RANDOM_OPTION if compile_kwargs.get("backend") == "inductor" else None,
        )
    exploration = Exploration(
        document.with_sections(
            explore={
                "compile_kwargs": _jsonable(compile_kwargs),
                "device": "cuda" if cuda else "cpu",
                "error": measured.get("error"),
                **cells,
            },
            timing=measured.get("timing"),
            accuracy=measured.get("accuracy"),
            isolation=isolation,
            profile=profiled,
        )
    )
    inputs = before if before is not None else args
    if box:
        return CellRun(exploration, box[0][0], cell.named_values(box[0]), None, inputs)
    return CellRun(exploration, None, cell.locals_at_error(error) if error else {}, error, inputs)


def _measure(
    cell: CellFunction,
    compiled: Callable[..., Any],
    before: tuple[Any, ...],
    real: tuple[Any, tuple[Any, ...]],
    real_args: tuple[Any, ...],
    compile_s: float,
    rewind_to_start: Callable[[], None],
    cuda: bool,
    budget_s: float,
    start_state: Snapshot,
) -> dict[str, Any]:
    """Accuracy (the gradients the real run computed against the eager run's, both from
    ``start_state``), then timing; a failure here is the measurement's, kept in the
    document with whatever was measured before it."""
    measured: dict[str, Any] = {}
    try:
        real_grads = start_state.changed_gradients()
        # the inputs as the real run left them, before they are put back to where it started
        real_inputs = clone_tensors(cell.inputs_of(real_args))
        start_state.restore()
        e_args = clone_tensors(before)
        rewind_to_start()
        eager_out = cell.fn(*e_args)
        eager_grads = start_state.changed_gradients()
        start_state.restore(keep_made=True)  # timed as a loop's next steps: see snapshot.py
        accuracy = {
            "outputs": diff_named(_compared(cell, eager_out), _compared(cell, real)),
            "inputs_after_call": diff_named(cell.inputs_of(e_args), real_inputs),
            **gradient_rows(eager_grads, real_grads),
            "first_divergence": None,
        }
        accuracy["ok"] = all(
            r["ok"]
            for r in accuracy["outputs"]
            + accuracy["inputs_after_call"]
            + accuracy.get("gradients", [])
        )
        measured["accuracy"] = accuracy
        c_args = clone_tensors(before)
        eager_stats, compiled_stats = measure(
            lambda: cell.fn(*e_args), lambda: compiled(*c_args), cuda=cuda, budget_s=budget_s
        )
        measured["timing"] = summarize(
            eager_stats, compiled_stats, compile_s, "cuda" if cuda else "cpu", budget_s
        )
    except Exception as exc:  # noqa: BLE001
        measured["error"] = error_record(exc)
    return measured


def _profile(
    cell: CellFunction,
    compiled: Callable[..., Any],
    before: tuple[Any, ...],
    args: tuple[Any, ...],
    cuda: bool,
    document: dict[str, Any],
    measured: dict[str, Any],
    budget_s: float,
) -> dict[str, Any] | None:
    """Runs of the compiled cell body profiled, each a step (measure/profile.py), outside
    the cell's capture: nothing they run is the user's compile. They start from the state
    the real run made, which is put back, RNG included; their output is not shown. One that
    fails is the measurement's error."""
    c_args = clone_tensors(before)
    with rng_state(cuda) as rewind, quiet(), untouched(cell.fn, args):
        try:
            return profile_calls(
                lambda: compiled(*c_args),
                document,
                cuda,
                measured["timing"]["compiled"]["median_ms"],
                budget_s=budget_s / 2,
                step="cell",
            )
        except Exception as exc:  # noqa: BLE001 - the measurement's failure, kept with the rest
            measured["error"] = measured.get("error") or error_record(exc)
            return None
        finally:
            rewind()


def _first_divergence(
    cell: CellFunction,
    before: tuple[Any, ...],
    args: tuple[Any, ...],
    compile_kwargs: dict[str, Any],
    document: dict[str, Any],
    accuracy: dict[str, Any],
    start_state: Snapshot,
) -> None:
    try:  # the cell's arguments too are put back as the real run left them
        with quiet(), untouched(cell.fn, args):
            start_state.restore()  # searched from where the real run started
            accuracy["first_divergence"] = find_first_divergence(
                cell.fn,
                clone_tensors(before),
                {},
                compile_kwargs,
                document,
                gradients=not gradients_ok(accuracy),
            )
    except Exception as exc:  # noqa: BLE001 - the search is best effort; say why
        accuracy["divergence_error"] = error_record(exc)


def _jsonable(compile_kwargs: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v if isinstance(v, (str, bool, int, float, dict, type(None))) else repr(v)
        for k, v in compile_kwargs.items()
    }
