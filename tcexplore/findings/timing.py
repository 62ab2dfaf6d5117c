"""Eager vs compiled time: how far the measurement answers "is it faster?", decided here
once and stored as ``timing["verdict"]`` (severity, headline, what is noisy, why the
machine was busy, advice, and the lines the views show beside the chart: the measurement
rule, the machine's figures, the first call's name), and the finding with when compile
time pays back. A noisy or undecided measurement, a busy machine, or nothing compiled
makes it a warning, never an OK. The rules themselves are measure/timing.py's (noise) and
measure/machine.py's (busy)."""

from __future__ import annotations

from typing import Any

from ..common.formatting import fmt_duration, fmt_num, plural
from .make import finding, tab_link

Data = dict[str, Any]

# Noisy: a side's IQR over this share of its median (measure/timing.py marks each side so;
# a document written before sides kept ``noisy`` is judged here by the same rule).
NOISY_IQR_FRACTION = 0.10


def _side_noisy(stats: Data) -> bool:
    if isinstance(stats.get("noisy"), bool):
        return stats["noisy"]
    return stats.get("iqr_ms", 0) > NOISY_IQR_FRACTION * stats.get("median_ms", 0)


def _times(speedup: float) -> str:
    return f"{fmt_num(speedup)}× faster" if speedup >= 1 else f"{fmt_num(1 / speedup)}× slower"


def _headline(timing: Data, uncertain: bool) -> str:
    eager, compiled = timing.get("eager") or {}, timing.get("compiled") or {}
    speedup, interval = timing.get("speedup"), timing.get("speedup_interval")
    per_call = (
        f"{fmt_duration(compiled.get('median_ms'))} vs "
        f"{fmt_duration(eager.get('median_ms'))} per call"
    )
    if not isinstance(speedup, (int, float)):
        return (
            f"Speedup unknown: compiled {fmt_duration(compiled.get('median_ms'))} vs eager "
            f"{fmt_duration(eager.get('median_ms'))} per call"
        )
    if uncertain:
        return (
            f"No clear difference between compiled and eager: {_times(speedup)} by the "
            f"medians ({per_call}), but the speedup's 95% interval, "
            f"{fmt_num(interval[0])}–{fmt_num(interval[1])}×, holds 1×"
        )
    return f"Compiled is {_times(speedup)} than eager: {per_call}"


def _noise(timing: Data) -> str | None:
    noisy = [
        (side, timing.get(side) or {})
        for side in ("eager", "compiled")
        if _side_noisy(timing.get(side) or {})
    ]
    if not noisy:
        return None
    said = []
    for i, (side, stats) in enumerate(noisy):
        iqr, median = stats.get("iqr_ms", 0), stats.get("median_ms", 0)
        share = f"{round(100 * iqr / median)}%" if median else "?"
        said.append(
            f"{side}'s {fmt_duration(iqr)} on {fmt_duration(median)} ({share})"
            if i
            else f"{side}'s IQR is {fmt_duration(iqr)} on a {fmt_duration(median)} median ({share})"
        )
    return "Noisy: " + ", ".join(said) + "."


def busy_text(machine: Any) -> str | None:
    """Why the machine was busy during the samples (measure/machine.py), or None."""
    if not isinstance(machine, dict) or not machine.get("busy"):
        return None
    reasons = "; ".join(str(r) for r in machine.get("reasons") or []) or "see the figures"
    return (
        f"Busy machine: {reasons}. A busy machine slows every sample alike, so the spread "
        "does not show it: these times are not this code's."
    )


def _fewer_threads(machine: Data) -> int | None:
    """The torch thread count that fits the cores others left free (measure/machine.py's),
    else, where others held every core, one: fewer threads wait less for a CPU."""
    if machine.get("fit_threads"):
        return int(machine["fit_threads"])
    threads, cores, others = (machine.get(k) for k in ("torch_threads", "cores", "others_cores"))
    if not all(isinstance(v, (int, float)) for v in (threads, cores, others)):
        return None
    fit = max(1, int(cores - others))
    return fit if fit < threads else None


def busy_advice(machine: Data) -> str:
    threads = _fewer_threads(machine)
    fit = (
        f", or torch.set_num_threads({threads}) to fit the cores other processes left free"
        if threads
        else ""
    )
    return f"Quiet the machine (stop other jobs) and measure again{fit}."


def machine_line(machine: Data) -> str:
    """The figures behind ``busy``, in one line."""

    def cores(value: Any) -> str:
        return f"{value:.1f}" if isinstance(value, (int, float)) else "?"

    parts = [
        f"{cores(machine.get('process_cores'))} cores used by this process",
        f"{cores(machine.get('others_cores'))} by others, of {machine.get('cores')}",
        f"torch threads {machine.get('torch_threads')}",
    ]
    if isinstance(machine.get("load_average"), (int, float)):
        parts.append(f"load average {machine['load_average']:.2f}")
    if isinstance(machine.get("throttled_share"), (int, float)):
        parts.append(f"throttled {machine['throttled_share']:.0%}")
    gpu = machine.get("gpu")
    if isinstance(gpu, dict):
        others = gpu.get("others") or 0
        parts.append(
            f"GPU shared with {others} other process(es)"
            if others
            else "no other process on the GPU"
        )
    window = machine.get("window_s")
    over = f" over {fmt_num(window)} s" if isinstance(window, (int, float)) else ""
    return f"{'busy' if machine.get('busy') else 'quiet'}: " + ", ".join(parts) + over


def _short(speedup: Any, uncertain: bool, compiled: bool) -> str:
    """The verdict in a few words, where a list of documents names it (the sidebar)."""
    if not compiled:
        return "nothing compiled"
    if not isinstance(speedup, (int, float)):
        return "speedup unknown"
    return "no clear difference" if uncertain else _times(speedup)


def break_even(even: Any) -> str:
    """The calls after which the compile has paid back, whole calls; never where compiled
    is not faster."""
    if not isinstance(even, (int, float)):
        return "never (compiled is not faster)"
    return plural(-int(-even // 1), "call")


def timing_verdict(timing: Data, compiled: bool = True) -> Data:
    """The verdict every view shows: ``severity`` ("ok" only for a steady, clear result of
    compiled code), ``headline``, ``short`` (the headline in a few words), ``noise`` (which
    side, how much), ``busy`` (why the machine was), ``advice``; and ``measurement`` (noisy
    or steady, with the rule), ``machine`` (its figures in one line, or None),
    ``first_call`` (what the first call's time is), ``break_even`` (the calls the compile
    takes to pay back). ``compiled``: whether anything was compiled (both sides ran eagerly
    if not)."""
    speedup, interval = timing.get("speedup"), timing.get("speedup_interval")
    uncertain = isinstance(interval, list) and interval[0] <= 1 <= interval[1]
    headline, noise = _headline(timing, uncertain), _noise(timing)
    budget = timing.get("budget_s")
    advice = None
    if noise or uncertain:
        this_run = f"this run: {budget:g} s per side; " if isinstance(budget, (int, float)) else ""
        advice = (
            f"For a measurement to trust: a longer time budget ({this_run}time_budget_s= "
            "in explore() and compare(), --time-budget in %%tcompile), a quieter machine, "
            "fewer other processes."
        )
    machine = timing.get("machine") if isinstance(timing.get("machine"), dict) else None
    busy = busy_text(machine)
    if busy:
        advice = busy_advice(machine) + (f" {advice}" if advice else "")
    slower = isinstance(speedup, (int, float)) and speedup < 1
    severity = (
        "warning"
        if not isinstance(speedup, (int, float))
        or uncertain
        or slower
        or noise
        or busy
        or not compiled
        else "ok"
    )
    if not compiled:
        headline = (
            "Nothing was compiled: both sides ran eagerly, so this compares eager "
            f"with eager ({headline})"
        )
    rule = f"{NOISY_IQR_FRACTION:.0%} of"
    return {
        "severity": severity,
        "headline": headline,
        "short": _short(speedup, uncertain, compiled),
        "noise": noise,
        "busy": busy,
        "advice": advice,
        "measurement": (
            f"noisy (an IQR over {rule} its median)"
            if noise
            else f"steady (both IQRs within {rule} their medians)"
        ),
        "machine": machine_line(machine) if machine else None,
        "first_call": (
            "first call (compile + run)" if compiled else "first call (nothing compiled)"
        ),
        "break_even": break_even(timing.get("break_even_calls")),
    }


def compiled_anything(data: Data) -> bool:
    """Whether any graph was compiled (a compile record without one compiled nothing)."""
    graphs = (data.get("summary") or {}).get("graphs")
    return graphs != 0 if isinstance(graphs, int) else bool(data.get("compiles"))


def decide(data: Data) -> None:
    if isinstance(data.get("timing"), dict):
        timing = data["timing"]
        data["timing"] = {**timing, "verdict": timing_verdict(timing, compiled_anything(data))}


def find(data: Data) -> list[Data]:
    timing = data.get("timing")
    if not isinstance(timing, dict):
        return []
    compiled = compiled_anything(data)
    verdict = timing_verdict(timing, compiled)
    even = timing.get("break_even_calls")
    payback = (
        "there is no compile to pay back"
        if not compiled
        else "compile time never pays back"
        if even is None
        else f"compile time pays back after {-int(-even // 1)} calls"
    )
    details = [t for t in (verdict["busy"], verdict["noise"]) if t]
    return [
        finding(
            "timing",
            verdict["severity"],
            f"{verdict['headline']}; {payback}.",
            details=details,
            advice=verdict["advice"],
            evidence=[tab_link("timing", "Timing")],
        )
    ]
