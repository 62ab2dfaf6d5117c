"""The one pipeline: ``explore()``, a ``%%tcompile`` cell and every ``compare()`` row run
these steps, in this order, on a subject (measure/subject.py: a function, or a cell):

1. record: one ``capture()`` around the real call and the runs measured against eager;
2. the real call: the compiled subject's first call (it compiles); a cell's on the user's
   own objects, its effects kept once, its exception raised again;
3. the eager reference, from the state the real call started from;
4. accuracy (outputs, inputs after the call, gradients), timing, memory;
5. after the capture closed: the profile, the fp64 reference, the first-divergence search
   where the outputs differ, and the explanation of a random mismatch;
6. the state put back (a function's as it was; a cell's as its real call left it);
7. tries: kept for "Try it", and with ``try_fixes`` each advised setting tried.

Each step is a function of measure/steps.py; a subject answers what differs between a
function and a cell (how it compiles, what its call returns, what it compares). A
measurement that fails is the exploration's ``explore.error``, kept with what was measured
before it; the real call's exception is the document's ``error``, recorded by the capture
(the Overview's "The captured code raised").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..decided import Document
from ..document import error_record
from . import steps
from .exploration import Exploration
from .profiled_capture import capture
from .random_ops import explain_mismatch
from .snapshot import Snapshot
from .steps import EagerCall, RealCall, Repeated, Start
from .subject import Subject
from .try_fixes import remember, run_tries, setting_fixes

Data = dict[str, Any]


def _unheard(stage: str) -> None:
    """No progress to tell (explore() shows none)."""


@dataclass(frozen=True)
class Plan:
    """What to measure: explore()'s arguments, a ``%%tcompile`` cell's options."""

    compile_kwargs: Data  # torch.compile's arguments, as the user gave them
    time_budget_s: float = 1.0
    eager: bool = True  # compare with eager at all (a cell's --no-eager: the real call only)
    timing: bool = True
    reference: str | None = None  # "fp64": both sides held against a float64 run too
    find_divergence: bool = True
    profile: bool = False
    memory: bool = False
    bypass_caches: bool = False  # True: a cold capture (capture()'s)
    try_fixes: bool = False
    remember: bool = True  # kept for "Try it" (a try's own explorations are not)
    keep_call: Callable[[Callable[[], Any]], None] | None = None  # a try's: the compiled call
    on_event: Callable[[Any], None] | None = None  # every trace event (a cell's progress)
    on_stage: Callable[[str], None] = _unheard  # the steps after the compile, as they start


@dataclass
class Measured:
    """What the measuring steps found (None: not measured); ``error``: the first that failed."""

    accuracy: Data | None = None
    timing: Data | None = None
    memory: Data | None = None
    profile: Data | None = None
    error: Data | None = None
    eager: EagerCall | None = field(default=None, repr=False)
    calls: Repeated | None = field(default=None, repr=False)


@dataclass
class Outcome:
    exploration: Exploration
    returned: Any  # what the real call returned (None if it raised)
    error: BaseException | None  # the real call's exception, the user's, to raise again


def run(subject: Subject, plan: Plan) -> Outcome:
    """The steps above, in order, on ``subject``."""
    start = steps.begin(subject, plan.eager)
    real: RealCall | None = None
    error: BaseException | None = None
    measured = Measured()
    end = start.state if not subject.keeps_effects else None
    try:
        try:
            with (
                subject.compiling(),
                capture(
                    bypass_caches=plan.bypass_caches, on_event=plan.on_event, explored=True
                ) as session,
            ):
                real = steps.real_call(subject, start)
                end = real.end
                if plan.eager:
                    _against_eager(subject, plan, start, real, measured)
        except Exception as exc:  # noqa: BLE001 - the user's: recorded by the capture
            error = exc
        document = subject.recorded(session.document)
        cells = subject.sections(document.data)
        if real is not None and measured.calls is not None:
            _after_capture(subject, plan, start, real, document, cells, measured)
    finally:
        if end is not None:
            end.restore()
    explored = document.with_sections(
        explore={
            "compile_kwargs": _jsonable(plan.compile_kwargs),
            "device": "cuda" if subject.cuda else "cpu",
            "error": measured.error,
            **cells,
        },
        timing=measured.timing,
        accuracy=measured.accuracy,
        memory=measured.memory,
        profile=measured.profile,
        isolation=_isolation(end, real) if end is not None and plan.eager else None,
    )
    exploration = _tries(Exploration(explored), subject, start, end, plan, error)
    returned = real.returned if real is not None else None
    return Outcome(exploration, returned, error)


def _isolation(end: Snapshot, real: RealCall | None) -> Data:
    """The ``isolation`` section: the state put back, and the real call's CUDA-graph outputs
    the user got as copies (the measuring replays write over the graph pool)."""
    report = end.report()
    if real is not None and real.copied_out_of_pool:
        count = real.copied_out_of_pool
        report["restored"].append(
            f"what the call returned: {count} tensor{'s' if count > 1 else ''} in CUDA-graph "
            f"memory, handed back as {'copies' if count > 1 else 'a copy'}, which the "
            "measuring replays cannot overwrite"
        )
    return report


def _against_eager(
    subject: Subject, plan: Plan, start: Start, real: RealCall, measured: Measured
) -> None:
    """Inside the capture: the eager call, accuracy, timing and memory (whose warm-up call
    compiles the backward). A failure is the measurement's, kept with what came before."""
    plan.on_stage(f"running eager for accuracy and timing ({plan.time_budget_s:g} s each)")
    try:
        eager = steps.eager_call(subject, start)
        measured.accuracy = steps.accuracy(subject, real, eager)
        measured.eager = eager
        measured.calls = steps.repeated(subject, start, eager)
        if plan.keep_call is not None:
            plan.keep_call(measured.calls.compiled)
        if plan.timing:
            measured.timing = steps.timing(
                subject, measured.calls, real.compile_s, plan.time_budget_s
            )
        if plan.memory:
            measured.memory = steps.memory(subject, start, real)
    except Exception as exc:  # noqa: BLE001 - the measurement's failure, kept with the rest
        measured.error = error_record(exc)


def _after_capture(
    subject: Subject,
    plan: Plan,
    start: Start,
    real: RealCall,
    document: Document,
    cells: Data,
    measured: Measured,
) -> None:
    """The profile (nothing it compiles is the user's), the fp64 reference, then the first
    divergence and the explanation of a mismatch."""
    data = document.data
    if plan.profile and measured.error is None and measured.calls and data["summary"]["graphs"]:
        plan.on_stage(f"profiling the compiled {subject.noun}")
        wall_ms = measured.timing["compiled"]["median_ms"] if measured.timing else None
        try:
            measured.profile = steps.profile(
                subject,
                start,
                measured.calls,
                {**data, "explore": cells},
                wall_ms,
                plan.time_budget_s,
            )
        except Exception as exc:  # noqa: BLE001 - the measurement's failure, kept with the rest
            measured.error = error_record(exc)
    accuracy, eager = measured.accuracy, measured.eager
    if accuracy is None or eager is None:
        return
    if plan.reference == "fp64":
        accuracy["reference"] = steps.fp64_reference(subject, start, eager.returned, real.returned)
    if not accuracy["ok"] and plan.find_divergence:
        plan.on_stage("outputs differ: searching for the first diverging graph node")
        steps.divergence(subject, start, accuracy, plan.compile_kwargs, data)
    backend = plan.compile_kwargs.get("backend", "inductor")
    explain_mismatch(
        accuracy, data, subject.fallback_random_option if backend == "inductor" else None
    )


def _tries(
    exploration: Exploration,
    subject: Subject,
    start: Start,
    end: Snapshot | None,
    plan: Plan,
    error: BaseException | None,
) -> Exploration:
    """Kept for the extension's "Try it"; with ``try_fixes`` each setting the findings
    advise tried on copies of the arguments as the real call started, from the state it
    started from (measure/try_fixes.py; a cell's state is put back as its real run left
    it after), each try an explore() of the subject's function, its before side this
    document. A subject that raised is not tried: the baseline would raise the same."""
    from .explore import explore  # noqa: PLC0415 - each try explores; explore() runs this

    data = exploration.document.data
    options = {
        **plan.compile_kwargs,
        "time_budget_s": plan.time_budget_s,
        "find_divergence": False,
        "memory": plan.memory,
        "bypass_caches": plan.bypass_caches,
    }
    args, kwargs = start.values
    if plan.remember:
        kept = start.state if subject.keeps_effects else None
        remember(explore, data, subject.fn, args, kwargs, options, kept)
    fixes = setting_fixes(data) if plan.try_fixes and error is None else []
    if not fixes:
        return exploration
    plan.on_stage(f"trying {', '.join(fix['label'] for fix in fixes)}")
    try:
        if start.state is not None:
            start.state.restore()
        tries = run_tries(explore, subject.fn, args, kwargs, options, fixes, data)
    finally:
        if end is not None:
            end.restore()
    return Exploration(exploration.document.with_sections(tries=tries or None))


def _jsonable(compile_kwargs: Data) -> Data:
    """torch.compile's arguments as the document keeps them (a backend callable: its repr)."""
    return {
        k: v if isinstance(v, (str, bool, int, float, dict, type(None))) else repr(v)
        for k, v in compile_kwargs.items()
    }
