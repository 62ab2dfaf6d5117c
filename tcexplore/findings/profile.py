"""Where the time goes: the step's verdict and advice (step_verdict.py, from what measure/
measured) and the profile's lines that views show as text, decided here and stored in the
section (the calls line ``profile["calls"]["line"]``, each kernel's ``below_roof["text"]``,
the figures the step's verdict used ``step["basis"]["line"]``), and the finding (the
step's verdict, what decided it and its first advice)."""

from __future__ import annotations

from typing import Any

from ..common.formatting import share, time_us
from . import fixes
from .make import finding, tab_link
from .step_verdict import judged
from .timing import busy_advice

Data = dict[str, Any]

#: Two measurements of one per-call cost further apart than this: the host's speed changed.
UNSTEADY_SHARE = 0.15


def calls_line(calls: Data) -> str:
    """How many calls the figures cover, and the calls that compiled, left out."""
    said = f"{calls.get('steady')} measured, {time_us(calls.get('per_call_us'))} each on average"
    if calls.get("compiling"):
        said += (
            f"; {calls['compiling']} during which torch compiled "
            f"({time_us(calls.get('compiling_us'))} in all) left out of every figure"
        )
    return said


def below_roof_text(below: Data) -> str:
    """Why a kernel runs far below its roof (measure/below_roof.py's reason), in one short
    text for the kernel tables."""
    names = below.get("transcendentals") or []
    math = f"transcendentals: {', '.join(names)}" if names else ""
    share = (
        f" (~{round(below['fault_share'] * 100)}% of its time)"
        if below.get("fault_share") is not None
        else ""
    )
    faults = f"page faults: {round(below.get('page_faults') or 0)} per launch{share}"
    if below.get("reason") == "page_faults":
        return f"{faults}; {math}" if math else faults
    if below.get("reason") == "transcendentals":
        return f"math-bound, {math}" + (f"; {faults}" if below.get("page_faults") else "")
    return "unexplained (no page faults, no transcendental math)"


def basis_line(basis: Data, device: str | None) -> str:
    """The figures the step's verdict used (measure/roofline.py's rule), in one line."""
    threshold = share(basis.get("threshold"))
    if basis.get("rule") == "loop":
        waits = "waits" if basis.get("gpu_waits") else "does not wait"
        said = (
            f"back to back ({basis.get('batches')} batches of {basis.get('calls')} calls): "
            f"the host issues a call in {time_us(basis.get('host_us'))} and the GPU runs "
            f"its kernels in {time_us(basis.get('device_us'))}, so the GPU {waits} for "
            f"the CPU (overhead-bound when it does); a loop pays "
            f"{time_us(basis.get('loop_us'))} per call"
        )
        latency = basis.get("latency_share") or 0
        if latency:
            said += (
                f"; latency-bound kernels take {share(latency)} of the GPU's time "
                f"(overhead-bound from {threshold})"
            )
        return said
    wall, kernels = basis.get("wall_us") or 0.0, basis.get("kernel_us") or 0.0
    where = "on a CPU host time is device time: " if device == "cpu" else ""
    latency = (
        f" and {time_us(basis['latency_us'])} in latency-bound kernels"
        if basis.get("latency_us")
        else ""
    )
    return (
        f"{where}{time_us(max(0.0, wall - kernels))} of {time_us(wall)} outside "
        f"kernels{latency}, {share(basis.get('share'))} (overhead-bound from {threshold})"
    )


def _busy_machine(data: Data) -> Data | None:
    """The machine's state the exploration measured with its timing, just before the
    profile (measure/machine.py), when it was busy."""
    timing = data.get("timing") if isinstance(data.get("timing"), dict) else {}
    machine = timing.get("machine")
    return machine if isinstance(machine, dict) and machine.get("busy") else None


def _busy_sentence(data: Data) -> str | None:
    """A CPU busy with other work slows kernels and the Python between them alike, so
    neither the split nor the kernels' place under their roofs is this code's."""
    machine = _busy_machine(data)
    if machine is None:
        return None
    reasons = "; ".join(str(r) for r in machine.get("reasons") or []) or "see Timing"
    return (
        f"Unreliable: measured on a busy machine ({reasons}), so this verdict and the "
        f"kernels' place under their roofs are not this code's. {busy_advice(machine)}"
    )


def unsteady_range(step: Data) -> tuple[float, float] | None:
    """On a GPU the same cost is measured twice, a while apart: calls back to back just
    before the profile (the loop figure the verdict uses) and the timing samples' median
    (each sample a batch of calls back to back, spread over the timing budget). Where the
    two differ by more than ``UNSTEADY_SHARE`` the host's speed changed between them (a
    shared host's speed moved by a third between windows a second apart, no process of
    its own busy): the (lower, higher) per-call time in µs, else None."""
    basis = step.get("basis") if isinstance(step.get("basis"), dict) else {}
    loop_us, timing_us = basis.get("loop_us"), step.get("timing_wall_us")
    if basis.get("rule") != "loop" or not loop_us or not timing_us:
        return None
    low, high = sorted((loop_us, timing_us))
    return (low, high) if high > low * (1 + UNSTEADY_SHARE) else None


def _unsteady_sentence(step: Data) -> str | None:
    found = unsteady_range(step)
    if found is None:
        return None
    low, high = found
    return (
        f"Unsteady: a call back to back took {time_us(step['basis']['loop_us'])} just "
        f"before the profile and {time_us(step['timing_wall_us'])} in the timing samples "
        f"(their median): the host's speed changed by {share(high / low - 1)} between "
        f"them, so a call costs {time_us(low)} to {time_us(high)} here, and the verdict "
        f"rests on the first. Explore again to see which holds."
    )


def unreliable(data: Data, step: Data) -> str | None:
    """What makes the step's figures unreliable, in sentences (a busy machine, a host whose
    speed changed between two measurements of the same cost), or None."""
    said = [s for s in (_busy_sentence(data), _unsteady_sentence(step)) if s]
    return " ".join(said) or None


def decide(data: Data) -> None:
    profile = data.get("profile")
    if not isinstance(profile, dict):
        return
    out = dict(profile)
    step = profile.get("step")
    if isinstance(step, dict) and isinstance(step.get("basis"), dict):
        kernels = [k for k in profile.get("kernels") or [] if isinstance(k, dict)]
        step = judged(step, kernels, profile.get("device") or "cpu")
        step = {
            **step,
            # what the run compiled with already (a reduce-overhead compile) is not advised
            "advice": [a for a in step["advice"] if not fixes.named_in_force(data, a)],
            "advised_modes": [
                m for m in step["advised_modes"] if not fixes.in_force(data, fixes.mode(m))
            ],
            "basis": {**step["basis"], "line": basis_line(step["basis"], profile.get("device"))},
        }
    if isinstance(step, dict):
        out["step"] = {**step, "unreliable": unreliable(data, step)}
    if isinstance(profile.get("calls"), dict):
        out["calls"] = {**profile["calls"], "line": calls_line(profile["calls"])}
    if isinstance(profile.get("kernels"), list):
        out["kernels"] = [
            {**k, "below_roof": {**k["below_roof"], "text": below_roof_text(k["below_roof"])}}
            if isinstance(k, dict) and isinstance(k.get("below_roof"), dict)
            else k
            for k in profile["kernels"]
        ]
    data["profile"] = out


def find(data: Data) -> list[Data]:
    step = (
        (data.get("profile") or {}).get("step") if isinstance(data.get("profile"), dict) else None
    )
    if not isinstance(step, dict) or not step.get("verdict"):
        return []
    advice = list(step.get("advice") or [])
    modes = list(step.get("advised_modes") or [])
    basis = step.get("basis")
    decided = (
        [f"Decided by: {basis_line(basis, data['profile'].get('device'))}"]
        if isinstance(basis, dict)
        else []
    )
    details = decided + list(advice[1:])
    caveat, busy = step.get("unreliable"), _busy_machine(data)
    if caveat:
        details = [caveat, *details]
    if busy is not None:  # the advice that holds on a busy machine comes first
        details = [details[0], *([advice[0]] if advice else []), *details[1:]]
        advice = [busy_advice(busy)]
    cause = "a busy machine" if busy is not None else "the host's speed changed"
    return [
        finding(
            "profile",
            "warning" if caveat else "info",
            "Where the time goes"
            + (f" (unreliable: {cause})" if caveat else "")
            + f": {step['verdict']}",
            advice=advice[0] if advice else None,
            fix=fixes.mode(modes[0]) if modes else None,
            # the other modes the advice names, tried beside it (findings/tried.py says
            # which won)
            also_fixes=[fixes.mode(m) for m in modes[1:]],
            details=details,
            evidence=[tab_link("profile", "Where the time goes")],
        )
    ]
