"""``explore()``: compile, capture, and measure a function against eager (measure/pipeline.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .exploration import Exploration
from .pipeline import Plan, run
from .subject import FunctionSubject


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
    compiled from the state the call starts from (backward included: the step's own, or
    its output's when that needs grad). A compile or call that
    raises is the document's ``error`` (what the code raised, with what was captured); a
    measurement that fails is ``explore.error``, kept with what was measured before it.
    Everything ``fn`` can reach is as it was afterwards (the ``isolation`` section says
    what was put back and what cannot be); a step computing gradients has them compared.
    Inductor's FX-graph and AOTAutograd caches are as the program has them (a hit is
    recorded as one); ``bypass_caches=True`` compiles cold (capture()'s). ``try_fixes`` tries each setting the findings
    advise (measure/try_fixes.py: a baseline and each variant explored cold, in isolation)
    and stores before and after in the finding (``tried``). ``_keep_call`` is a try's own:
    it is handed the compiled call (on copies of the arguments) to time against another.
    """
    compile_kwargs = compile_arguments(mode, backend, dynamic, fullgraph, options)
    plan = Plan(
        compile_kwargs,
        time_budget_s=time_budget_s,
        timing=measure_timing,
        reference=reference,
        find_divergence=find_divergence,
        profile=profile or profile_gpu,
        memory=memory,
        bypass_caches=bypass_caches,
        try_fixes=try_fixes,
        remember=_keep_call is None,  # a try's own explorations are not the user's to try
        keep_call=_keep_call,
    )
    return run(FunctionSubject(fn, args, kwargs, compile_kwargs), plan).exploration
