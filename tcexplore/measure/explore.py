"""``explore()``: compile, capture, and measure a function against eager."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from .. import _torch_compat
from ..capture import capture
from ..capture.not_compiled import nothing_compiled
from ..capture.notebook_cells import notebook_cell_sections
from ..document import error_record
from .cloned_inputs import clone_tensors, rng_state
from .exploration import Exploration
from .first_divergence import find_first_divergence
from .foreign_entries import without_foreign_entries
from .gradients import gradient_rows, gradients_ok
from .memory import measure_memory
from .output_diff import closeness_to_reference, diff_named, diff_outputs
from .profile import profile_calls
from .random_ops import explain_mismatch
from .snapshot import Snapshot, untouched
from .timing import first_call_seconds, measure, summarize, uses_cuda
from .try_fixes import remember, run_tries, setting_fixes
from .unheard import no_warnings


def _to_fp64(fn: Callable, args: tuple, kwargs: dict[str, Any]) -> tuple[Callable, tuple, dict]:
    def cast(t: torch.Tensor) -> torch.Tensor:
        return t.detach().double() if t.is_floating_point() else t.detach().clone()

    if isinstance(fn, torch.nn.Module):
        import copy  # noqa: PLC0415

        fn = copy.deepcopy(fn).double()
    return (
        fn,
        _torch_compat.tree_map_tensors(cast, args),
        _torch_compat.tree_map_tensors(cast, kwargs),
    )


# How explore() takes Inductor's option to draw random numbers as eager does.
FALLBACK_RANDOM_OPTION = 'options={"fallback_random": True}'


def compile_arguments(
    mode: str | None,
    backend: Any,
    dynamic: bool | None,
    fullgraph: bool,
    options: dict[str, Any] | None,
) -> dict[str, Any]:
    """Exactly the torch.compile arguments the user gave (None ones left out)."""
    chosen = {
        "backend": backend,
        "fullgraph": fullgraph,
        "dynamic": dynamic,
        "mode": mode,
        "options": options,
    }
    return {k: v for k, v in chosen.items() if v is not None}


def explore(
    fn: Callable,
    *args: Any,
    mode: str | None = None,
    backend: Any = "inductor",
    dynamic: bool | None = None,
    fullgraph: bool = False,
    options: dict[str, Any] | None = None,
    time_budget_s: float = 1.0,
    reference: str | None = None,
    find_divergence: bool = True,
    measure_timing: bool = True,
    profile: bool = False,
    profile_gpu: bool = False,
    memory: bool = False,
    bypass_caches: bool = False,
    try_fixes: bool = False,
    _keep_call: Callable[[Callable[[], Any]], None] | None = None,
    **kwargs: Any,
) -> Exploration:
    """Compile ``fn`` with these torch.compile arguments, capture it and compare with eager.

    ``time_budget_s`` bounds each side's timing; ``reference="fp64"`` also judges both
    against a float64 eager run; ``profile`` (``profile_gpu`` is its old name) measures
    every kernel's time after the timing samples, rolls it up to source lines and holds it
    against this machine's peaks. ``memory`` measures one call's peak memory eager and
    compiled (backward included when the output needs grad). A compile or run that raises
    is kept in the result. Everything ``fn`` can reach is as it was afterwards (the
    ``isolation`` section says what was put back and what cannot be); a step computing
    gradients has them compared. Inductor's FX-graph and AOTAutograd caches are as the
    program has them (a hit is recorded as one); ``bypass_caches=True`` compiles cold
    (capture()'s). ``try_fixes`` tries each setting the findings
    advise (measure/try_fixes.py: a baseline and each variant explored cold, in isolation)
    and stores before and after in the finding (``tried``). ``_keep_call`` is a try's own:
    it is handed the compiled call (on copies of the arguments) to time against another.
    """
    with untouched(fn, args, kwargs) as state:
        exploration = _explore(
            state,
            fn,
            args,
            kwargs,
            mode,
            backend,
            dynamic,
            fullgraph,
            options,
            time_budget_s,
            reference,
            find_divergence,
            measure_timing,
            profile,
            profile_gpu,
            memory,
            bypass_caches,
            _keep_call,
        )
    document = exploration.document.with_sections(isolation=state.report())
    options = {
        "mode": mode,
        "backend": backend,
        "dynamic": dynamic,
        "fullgraph": fullgraph,
        "options": options,
        "time_budget_s": time_budget_s,
        "find_divergence": False,
        "memory": memory,
    }
    if _keep_call is None:  # a try's own explorations are not the user's to try again
        remember(explore, document.data, fn, args, kwargs, options)
    if try_fixes:
        tries = run_tries(explore, fn, args, kwargs, options, setting_fixes(document.data))
        document = document.with_sections(tries=tries or None)
    return Exploration(document)


def _explore(
    state: Snapshot,
    fn: Callable,
    args: tuple,
    kwargs: dict[str, Any],
    mode: str | None,
    backend: Any,
    dynamic: bool | None,
    fullgraph: bool,
    options: dict[str, Any] | None,
    time_budget_s: float,
    reference: str | None,
    find_divergence: bool,
    measure_timing: bool,
    profile: bool,
    profile_gpu: bool,
    memory: bool,
    bypass_caches: bool,
    keep_call: Callable[[Callable[[], Any]], None] | None,
) -> Exploration:
    compile_kwargs = compile_arguments(mode, backend, dynamic, fullgraph, options)
    cuda = uses_cuda((args, kwargs))
    compiled_fn = _torch_compat.isolated_compile(fn, compile_kwargs)
    stance, disabled = _torch_compat.compile_stance(), _torch_compat.is_compile_disabled(fn)
    error = None
    compiled_out = eager_out = None
    timing = accuracy = profiled = memory_section = None
    with (
        _torch_compat.fresh_dynamic_state(),
        capture(bypass_caches=bypass_caches, explored=True) as session,
    ):
        try:
            with rng_state(cuda) as rewind:
                c_args, c_kwargs = clone_tensors(args), clone_tensors(kwargs)
                e_args, e_kwargs = clone_tensors(args), clone_tensors(kwargs)
                # The compiling call is the compiled side's step: run again from the saved
                # state, a step would find none of the optimizer state its first run made
                # (and that its code guards on), and be compiled again.
                returned: list[Any] = []
                compile_s = first_call_seconds(
                    lambda: returned.append(compiled_fn(*c_args, **c_kwargs)), cuda=cuda
                )
                compiled_out = returned[0]
                compiled_grads = state.changed_gradients()
                state.restore()  # the eager step runs from the same state
                rewind()
                eager_out = fn(*e_args, **e_kwargs)
                eager_grads = state.changed_gradients()
                state.restore(keep_made=True)  # what follows runs as a loop's next steps
            if keep_call is not None:
                keep_call(lambda: compiled_fn(*c_args, **c_kwargs))
            accuracy = {
                "outputs": diff_outputs(eager_out, compiled_out),
                "inputs_after_call": diff_named(
                    {"args": e_args, "kwargs": e_kwargs}, {"args": c_args, "kwargs": c_kwargs}
                ),
                **gradient_rows(eager_grads, compiled_grads),
            }
            accuracy["ok"] = all(
                r["ok"]
                for r in accuracy["outputs"]
                + accuracy["inputs_after_call"]
                + accuracy.get("gradients", [])
            )
            if measure_timing:
                eager_stats, compiled_stats = measure(
                    lambda: fn(*e_args, **e_kwargs),
                    lambda: compiled_fn(*c_args, **c_kwargs),
                    cuda=cuda,
                    budget_s=time_budget_s,
                )
                timing = summarize(
                    eager_stats, compiled_stats, compile_s, "cuda" if cuda else "cpu", time_budget_s
                )
            if memory:  # inside the capture: the warm-up call compiles the backward
                try:
                    memory_section = measure_memory(
                        fn, compiled_fn, args, kwargs, cuda, lambda: state.restore(keep_made=True)
                    )
                except Exception as exc:  # noqa: BLE001 - kept in the section, with why
                    memory_section = {
                        "peak_bytes": None,
                        "cudagraph_pools": None,
                        "error": error_record(exc),
                    }
        except Exception as exc:  # noqa: BLE001 - kept in the exploration, with the capture
            error = error_record(exc)
    document = without_foreign_entries(session.document)
    if not document.data["summary"]["graphs"]:
        document = document.with_sections(
            not_compiled=nothing_compiled(fn, stance, disabled, document.data["not_compiled"])
        )
    cells = notebook_cell_sections(document.data)
    if (profile or profile_gpu) and error is None and document.data["summary"]["graphs"]:
        profiled = profile_calls(
            lambda: compiled_fn(*c_args, **c_kwargs),
            {**document.data, "explore": cells},  # its words name a cell's lines as the rest
            cuda,
            timing["compiled"]["median_ms"] if timing else None,
            budget_s=time_budget_s / 2,
        )
    if accuracy is not None:
        accuracy["first_divergence"] = None
        if reference == "fp64":
            accuracy["reference"] = _fp64_reference(fn, args, kwargs, eager_out, compiled_out)
        if not accuracy["ok"] and find_divergence:
            try:
                state.restore()
                accuracy["first_divergence"] = find_first_divergence(
                    fn,
                    args,
                    kwargs,
                    compile_kwargs,
                    document.data,
                    gradients=not gradients_ok(accuracy),
                )
            except Exception as exc:  # noqa: BLE001 - the search is best effort; say why
                accuracy["divergence_error"] = error_record(exc)
        explain_mismatch(
            accuracy,
            document.data,
            FALLBACK_RANDOM_OPTION if compile_kwargs.get("backend") == "inductor" else None,
        )
    return Exploration(
        document.with_sections(
            explore={
                "compile_kwargs": {
                    k: repr(v) if k == "backend" and not isinstance(v, str) else v
                    for k, v in compile_kwargs.items()
                },
                "device": "cuda" if cuda else "cpu",
                "error": error,
                **cells,
            },
            timing=timing,
            accuracy=accuracy,
            profile=profiled,
            memory=memory_section,
        )
    )


def _fp64_reference(
    fn: Callable, args: tuple, kwargs: dict[str, Any], eager_out: Any, compiled_out: Any
) -> dict[str, Any]:
    try:
        with no_warnings():  # torch's words on tcexplore's float64 copy, not on the user's code
            ref_fn, ref_args, ref_kwargs = _to_fp64(fn, args, kwargs)
            reference = ref_fn(*ref_args, **ref_kwargs)
    except Exception as exc:  # noqa: BLE001 - e.g. a function closing over fp32 modules
        return {"available": False, "reason": f"{type(exc).__name__}: {exc}"}
    return {
        "available": True,
        "outputs": closeness_to_reference(reference, eager_out, compiled_out),
    }
