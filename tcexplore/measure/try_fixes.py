"""Advice tried: each setting a finding's fix names, run on the user's call and measured
against the same call without it (``explore(..., try_fixes=True)``, ``%%tcompile
--try-fixes``, the extension's "Try it").

Both sides are explored the same way, one after the other in this process, each as a
grid row of compare() is (:mod:`.cold`: Inductor's caches empty after one warm-up compile,
so neither side's compile time depends on what ran before it); each is an explore(): a
backend equal only to itself and its own recompile region (the user's entries are neither
used nor removed), automatic-dynamic state swapped for a fresh one, and everything the call
reaches put back (:mod:`.snapshot`). A config value is set for its side only and put back
(``_torch_compat.patched_config``). "Caches on" compiles its side twice in one empty cache
directory: the second compile is the warm start. A side that raises is that try's error.
What the try concludes is decided in findings/tried.py and stored in the document's
``tries``; each finding whose fix it tried then holds it as ``tried``.
"""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch

from .. import _torch_compat
from ..document import error_record
from ..findings.tried import side, tried
from .cold import cold_compiles
from .snapshot import Snapshot, untouched
from .timing import measure, speedup_interval, uses_cuda
from .unheard import quiet

Data = dict[str, Any]

# A try's timing sample: one side's calls back to back for about this long (the sides'
# blocks in alternation), as a training or serving loop calls one compiled program.
BLOCK_S = 0.02
PROBE_CALLS = 5
MAX_BLOCK_CALLS = 5000
# Each side's own exploration is timed this long: only for the calls a loop makes after the
# first (what the document it is compared with ran), its figures are not used.
EXPLORED_BUDGET_S = 0.01

# Explorations a "Try it" button may name, by document id: the latest few, in this kernel.
KEPT = 8


@dataclass
class _Kept:
    """What "Try it" needs of an exploration: the call, explore()'s options, the fixes its
    findings advise, its document (the tries' before side), the tries made since, and for
    a cell (whose real run kept its effects) the state that run started from."""

    explore_fn: Callable[..., Any]
    fn: Callable
    args: tuple
    kwargs: Data
    options: Data
    fixes: dict[str, Data]
    document: Data
    start: Snapshot | None
    cell: bool  # its real run kept its effects: a try needs ``start``
    tried: dict[str, Data] = field(default_factory=dict)


_recent: OrderedDict[str, _Kept] = OrderedDict()


def setting_fixes(data: Data) -> list[Data]:
    """The distinct fixes of the document's findings that are settings, in findings order;
    none tried in this document already (a finding holding its try, or its other fixes')."""
    tried = {
        str(t.get("label"))
        for f in data.get("findings") or []
        for t in [f.get("tried"), *(f.get("also_tried") or [])]
        if isinstance(t, dict)
    }
    out: dict[str, Data] = {}
    for f in data.get("findings") or []:
        for fix in [f.get("fix"), *(f.get("also_fixes") or [])]:
            if isinstance(fix, dict) and fix.get("setting") and fix["label"] not in {*out, *tried}:
                out[fix["label"]] = fix
    return list(out.values())


def run_tries(
    explore_fn: Callable[..., Any],
    fn: Callable,
    args: tuple,
    kwargs: Data,
    options: Data,
    fixes: list[Data],
    document: Data | None = None,
) -> list[Data]:
    """One baseline (``options``: explore()'s arguments as the user gave them) and one
    variant per fix, each explored cold, then the two timed in alternation; the tried
    records, in ``fixes``' order. ``document``: the one whose findings advised the fixes:
    the before side is its own (graphs, breaks, recompiles, peak, outputs), with the
    baseline's cold compile and both sides' time per call measured alongside the variant
    (figures compare only when measured alike)."""
    if not fixes:
        return []
    cuda = uses_cuda((args, kwargs))
    backend = options.get("backend", "inductor")
    budget = options.get("time_budget_s", 1.0)

    def explored(overrides: Data) -> tuple[Data, Callable[[], Any]]:
        calls: list[Callable[[], Any]] = []
        # Timed briefly: its calls are a loop's next steps, as the document's timing made
        # them (a step's second call may recompile); the figures are the alternation's.
        timed = {"measure_timing": True, "time_budget_s": EXPLORED_BUDGET_S}
        with quiet():  # the call's prints were shown once, by the run the user asked for
            exploration = explore_fn(
                fn,
                *args,
                **{**options, **overrides, **timed, "_keep_call": calls.append},
                **kwargs,
            )
        if not calls:  # the compile or the first call raised: the exploration says how
            raise TryFailed(exploration.error or {})
        return exploration.document.data, calls[0]

    try:
        with cold_compiles(backend, cuda):
            before_data, before_call = explored({})
    except Exception as exc:  # noqa: BLE001 - then every try says why
        error = _error(exc)
        return [tried(fix, None, None, error) for fix in fixes]
    records = []
    for fix in fixes:
        before = side(before_data)
        if document is not None:
            before = {**side(document), "compile_s": before["compile_s"]}
        try:
            with cold_compiles(backend, cuda), _applied(fix["setting"]) as overrides:
                after_data, after_call = _variant(explored, fix["setting"], overrides)
                after = side(after_data)
                with untouched(fn, args, kwargs), quiet():
                    first, second = back_to_back(before_call, after_call, cuda, budget)
            before["median_ms"], after["median_ms"] = first.median_ms, second.median_ms
            interval = speedup_interval(first.per_call_s, second.per_call_s)
            records.append(tried(fix, before, after, None, interval))
        except Exception as exc:  # noqa: BLE001 - a variant that raises costs only itself
            records.append(tried(fix, before, None, _error(exc)))
    return records


def _calls_per_block(call: Callable[[], Any], cuda: bool) -> int:
    """Calls in a block of about BLOCK_S, from a few calls timed to completion."""
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    call()
    sync()
    began = time.perf_counter()
    for _ in range(PROBE_CALLS):
        call()
    sync()
    per_call = (time.perf_counter() - began) / PROBE_CALLS
    return max(1, min(MAX_BLOCK_CALLS, int(BLOCK_S / max(per_call, 1e-7))))


def back_to_back(
    before: Callable[[], Any], after: Callable[[], Any], cuda: bool, budget_s: float
) -> tuple[Any, Any]:
    """Both sides timed as a loop calls them: each sample a block of one side's calls back
    to back (about BLOCK_S; on CUDA timing's own events around it), the sides' blocks in
    alternation, so a switch between the two compiled programs (their CUDA graphs, the
    caches) is paid once per block as a loop pays it once, not once per few calls. The
    stats are per call."""
    blocks = [_calls_per_block(c, cuda) for c in (before, after)]

    def block(call: Callable[[], Any], n: int) -> Callable[[], None]:
        def run() -> None:
            for _ in range(n):
                call()

        return run

    stats = measure(
        *(block(c, n) for c, n in zip((before, after), blocks)), cuda=cuda, budget_s=budget_s
    )
    for result, n in zip(stats, blocks):
        result.median_ms /= n
        result.per_call_s = [t / n for t in result.per_call_s]
    return stats[0], stats[1]


class TryFailed(Exception):
    """A side whose compile or first call raised (explore() kept the error)."""

    def __init__(self, error: Data):
        super().__init__(error.get("message") or "the call raised")
        self.error = error


def _error(exc: Exception) -> Data:
    return exc.error if isinstance(exc, TryFailed) and exc.error else error_record(exc)


@contextlib.contextmanager
def _applied(setting: Data) -> Iterator[Data]:
    """A config value set while the variant compiles and is timed (its recompiles, if
    any, get it too), put back after; explore()'s own arguments are yielded instead."""
    kind, name, value = setting["kind"], setting["name"], setting["value"]
    if kind == "config":
        with _torch_compat.patched_config(setting["module"], name, value):
            yield {}
    elif kind == "guard_filter":  # torch's helper, named by its dotted path
        yield {"options": {name: _torch_compat.lookup.resolve(value)}}
    else:
        yield {name: value}


def _variant(
    explored: Callable[[Data], tuple[Data, Callable[[], Any]]], setting: Data, overrides: Data
) -> tuple[Data, Callable[[], Any]]:
    """The variant's exploration; caches on compiles twice in its side's one empty cache
    directory, and the second compile (a warm start) is the one measured."""
    if setting["kind"] == "capture":
        explored(overrides)
    return explored(overrides)


def remember(
    explore_fn: Callable[..., Any],
    data: Data,
    fn: Callable,
    args: tuple,
    kwargs: Data,
    options: Data,
    start: Snapshot | None = None,
) -> None:
    """Keep what the extension's "Try it" needs to try a fix of this exploration (the
    function, its arguments, explore()'s options, its document) under the document's id, in
    this kernel; the oldest is dropped past KEPT. Only an exploration with a setting to try
    is kept. ``start``: a cell's state before its real run, kept (in host memory) for the
    latest cell only: it is a copy of everything the cell reaches."""
    fixes = {fix["label"]: fix for fix in setting_fixes(data)}
    if not fixes or not isinstance(data.get("id"), str):
        return
    if start is not None:
        for older in _recent.values():
            older.start = None
        start = start.on_host()
    cell = start is not None
    _recent[data["id"]] = _Kept(explore_fn, fn, args, kwargs, options, fixes, data, start, cell)
    _recent.move_to_end(data["id"])
    while len(_recent) > KEPT:
        _recent.popitem(last=False)


def try_fix(document_id: str, label: str) -> Data:
    """The kernel's side of "Try it": the fix named ``label`` tried on the exploration
    ``document_id`` made in this kernel, from the state its real call started from, its
    before side the document's; ``{"tried": record}`` or ``{"error": why}``. A fix tried
    already is not tried again: its record is the answer."""
    kept = _recent.get(document_id)
    if kept is None:
        return {
            "error": "this output's exploration is not in this kernel (the kernel restarted, "
            f"or more than {KEPT} explorations ran since): run its cell again to try it"
        }
    if label not in kept.fixes:
        return {"error": f"{label} is not a setting this exploration's findings name"}
    if label in kept.tried:
        return {"tried": kept.tried[label]}
    if kept.cell and kept.start is None:
        return {
            "error": "the state this cell's run started from is kept for the latest cell "
            "only (it is a copy of everything the cell reaches): run its cell again to try it"
        }
    current = kept.start.now() if kept.start else Snapshot(kept.fn, kept.args, kept.kwargs)
    try:
        if kept.start is not None:
            kept.start.restore()
        (record,) = run_tries(
            kept.explore_fn,
            kept.fn,
            kept.args,
            kept.kwargs,
            kept.options,
            [kept.fixes[label]],
            kept.document,
        )
    finally:
        current.restore()
    kept.tried[label] = record
    return {"tried": record}
