"""The pipeline's steps (measure/pipeline.py runs them in order), each one small function
of typed inputs: the real call, the eager reference, the accuracy rule, timing, memory,
the profile, the fp64 reference and the first-divergence search.

The state rules live here, once: the eager call starts from the state the real call
started from (its RNG rewound), and every later run from that state with the optimizer
state a step made kept (``restore(keep_made=True)``: a compiled step guards on those
objects, as a loop's next step finds them; :mod:`.snapshot`). Only the calls the user asked
for are heard (the real call; explore()'s eager call): every other run is ``quiet()``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from .. import _torch_compat
from ..document import error_record
from .cloned_inputs import clone_tensors, out_of_cudagraph_pool, rng_snapshot
from .first_divergence import find_first_divergence
from .gradients import State, gradient_rows, gradients_ok, state_rows
from .memory import measure_memory
from .output_diff import closeness_to_reference, diff_named
from .profile import profile_calls
from .snapshot import Snapshot
from .subject import Arguments, Subject
from .timing import first_call_seconds, measure, summarize
from .unheard import no_warnings, quiet

Data = dict[str, Any]
Gradients = dict[str, torch.Tensor | None]


@dataclass
class Start:
    """Where the real call starts: the arguments' values (no run changes them), the state
    the subject reaches (None when nothing runs again: no eager comparison), the RNG."""

    values: Arguments
    state: Snapshot | None
    rewind: Callable[[], None]


@dataclass
class RealCall:
    """The compiled subject's first call (it compiles), and what it did."""

    args: Arguments
    returned: Any
    compile_s: float
    gradients: Gradients  # the gradients it changed, as it left them
    state: State  # the state it changed (parameters, buffers, optimizer state), copies
    inputs_after: dict[str, Any]  # copies of its inputs as it left them
    end: Snapshot | None  # the state to leave once measuring is done
    copied_out_of_pool: int = 0  # tensors of ``returned`` copied out of a CUDA graph pool


@dataclass
class EagerCall:
    """The eager reference call, from the state the real call started from."""

    args: Arguments
    returned: Any
    gradients: Gradients
    state: State


@dataclass
class Repeated:
    """The calls measuring repeats (timing, profile, a try's alternation), on copies."""

    eager: Callable[[], Any]
    compiled: Callable[[], Any]


def begin(subject: Subject, compare: bool) -> Start:
    values = subject.start_values()
    state = Snapshot(subject.fn, subject.args, subject.kwargs) if compare else None
    return Start(values, state, rng_snapshot(subject.cuda))


def real_call(subject: Subject, start: Start) -> RealCall:
    """The compiling call; a subject that keeps its effects (a cell) has the state it made
    saved, to be left as it is. Its exception is the user's, raised again (and recorded by
    the capture around it)."""
    args = subject.real_arguments(start.values)
    returned: list[Any] = []
    try:
        compile_s = first_call_seconds(
            lambda: returned.append(subject.compiled(*args[0], **args[1])), cuda=subject.cuda
        )
    except Exception as exc:  # noqa: BLE001
        raise subject.raised(exc)  # noqa: B904 - the same exception, re-raised
    state = start.state
    end = state
    if state is not None and subject.keeps_effects:
        end = Snapshot(subject.fn, subject.args, subject.kwargs)
    kept, copied = out_of_cudagraph_pool(returned[0])
    return RealCall(
        args=args,
        returned=kept,
        copied_out_of_pool=copied,
        compile_s=compile_s,
        gradients=state.changed_gradients() if state is not None else {},
        state=state.changed_state() if state is not None else {},
        inputs_after=clone_tensors(subject.inputs_of(args)),
        end=end,
    )


def eager_call(subject: Subject, start: Start) -> EagerCall:
    """Eager from the real call's start state and RNG; afterwards the start state with the
    optimizer state the real call made kept, for the runs that follow."""
    assert start.state is not None
    start.state.restore()
    args = clone_tensors(start.values)
    start.rewind()
    with contextlib.nullcontext() if subject.eager_heard else quiet():
        returned = subject.fn(*args[0], **args[1])
    gradients, state = start.state.changed_gradients(), start.state.changed_state()
    start.state.restore(keep_made=True)
    return EagerCall(args, returned, gradients, state)


def accuracy(subject: Subject, real: RealCall, eager: EagerCall) -> Data:
    """The accuracy rule: every output, every input after the call, every gradient the
    step computed and the state it left (parameters, buffers, optimizer state), compiled
    against eager, within torch.testing's tolerances."""
    record: Data = {
        "outputs": subject.outputs(eager.returned, real.returned),
        "inputs_after_call": diff_named(subject.inputs_of(eager.args), real.inputs_after),
        **gradient_rows(eager.gradients, real.gradients),
        **state_rows(eager.state, real.state),
        "first_divergence": None,
    }
    rows = [
        *record["outputs"],
        *record["inputs_after_call"],
        *record.get("gradients", []),
        *record.get("state_after_call", []),
    ]
    record["ok"] = all(row["ok"] for row in rows)
    return record


def repeated(subject: Subject, start: Start, eager: EagerCall) -> Repeated:
    """Eager on the eager call's arguments, compiled on copies of the start values."""
    args = clone_tensors(start.values)
    return Repeated(
        eager=lambda: subject.fn(*eager.args[0], **eager.args[1]),
        compiled=lambda: subject.compiled(*args[0], **args[1]),
    )


def timing(subject: Subject, calls: Repeated, compile_s: float, budget_s: float) -> Data:
    """Eager and compiled timed in alternation, ``budget_s`` each (measure/timing.py)."""
    with quiet():
        eager, compiled = measure(calls.eager, calls.compiled, cuda=subject.cuda, budget_s=budget_s)
    return summarize(eager, compiled, compile_s, "cuda" if subject.cuda else "cpu", budget_s)


def memory(subject: Subject, start: Start, real: RealCall) -> Data:
    """One call's peak, eager and compiled (measure/memory.py), each from the start state
    with the step's made state kept, as timing's calls start; a call that back-propagates
    itself (the real call changed gradients) gets no backward of its output on top. A
    failure is the section's, with why."""
    state = start.state
    assert state is not None
    try:
        with quiet():
            return measure_memory(
                subject.fn,
                subject.compiled,
                *start.values,
                subject.cuda,
                lambda: state.restore(keep_made=True),
                backward=not real.gradients,
            )
    except Exception as exc:  # noqa: BLE001 - kept in the section, with why
        return {"peak_bytes": None, "cudagraph_pools": None, "error": error_record(exc)}


def profile(
    subject: Subject,
    start: Start,
    calls: Repeated,
    labelled: Data,
    wall_ms: float | None,
    budget_s: float,
) -> Data:
    """Calls of the compiled subject profiled (measure/profile.py), after the capture closed
    (nothing they compile is the user's), starting where the timing's calls start.
    ``labelled``: the document with its ``explore`` section, so that the run view's words
    name a cell's lines as the rest of the document does."""
    assert start.state is not None
    start.state.restore(keep_made=True)
    with quiet():
        return profile_calls(
            calls.compiled,
            labelled,
            subject.cuda,
            wall_ms,
            budget_s=budget_s / 2,
            step=subject.profile_step,
        )


def fp64_reference(subject: Subject, start: Start, eager: Any, real: Any) -> Data:
    """Eager and compiled against a float64 run of the subject on float64 copies."""

    def cast(t: torch.Tensor) -> torch.Tensor:
        return t.detach().double() if t.is_floating_point() else t.detach().clone()

    fn = subject.fn
    try:
        with no_warnings(), quiet():  # torch's words on tcexplore's float64 copy
            if isinstance(fn, torch.nn.Module):
                import copy  # noqa: PLC0415

                fn = copy.deepcopy(fn).double()
            args, kwargs = _torch_compat.tree_map_tensors(cast, start.values)
            reference = fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - e.g. a function closing over fp32 modules
        return {"available": False, "reason": f"{type(exc).__name__}: {exc}"}
    return {"available": True, "outputs": closeness_to_reference(reference, eager, real)}


def divergence(
    subject: Subject, start: Start, accuracy: Data, compile_kwargs: Data, document: Data
) -> None:
    """The first diverging graph node (measure/first_divergence.py), searched from the
    real call's start state; a search that fails says why in ``divergence_error``."""
    assert start.state is not None
    try:
        start.state.restore()
        args, kwargs = clone_tensors(start.values)
        with quiet():
            accuracy["first_divergence"] = find_first_divergence(
                subject.fn,
                args,
                kwargs,
                compile_kwargs,
                document,
                gradients=not gradients_ok(accuracy),
            )
    except Exception as exc:  # noqa: BLE001 - the search is best effort; say why
        accuracy["divergence_error"] = error_record(exc)
