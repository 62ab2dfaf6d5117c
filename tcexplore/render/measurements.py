"""The "Eager vs compiled" section: what ``explore()`` or ``%%tcompile`` measured.

Timing (medians with their spread, speedup, compile time, break-even), accuracy (one
row per output leaf with its path, the inputs after the call, the first diverging graph
node with its user line and kernels, random ops named as the cause where they are one)
and a failure of the measurement itself.
"""

from __future__ import annotations

import json
from typing import Any

from .bars import BAR_COLOURS, Bar, axis_chart, fmt_duration, fmt_num, time_axis
from .isolation import divergence_of, gradient_verdict, gradients_table, isolation_html
from .markup import Data, _c, _details, _e, _error_block, _location_with_code, _names, _note, _table

_TIMING_COLUMNS = ("median_ms", "iqr_ms", "q1_ms", "q3_ms", "min_ms", "max_ms", "samples", "inner",
                   "warmup_calls", "noisy")
_TIMING_HEADERS = ["", "median (ms)", "IQR (ms)", "Q1 (ms)", "Q3 (ms)", "min (ms)", "max (ms)",
                   "samples", "calls per sample", "warm-up calls", "noisy"]
NOISY_IQR_FRACTION = 0.10  # measure/timing.py's rule, read back for old documents and the key
_WARNING_BOX = "border-left: 4px solid #d4a72c; background: #fff8c5; padding: 2px 8px; margin: 4px 0"
_WARNING_PILL = "background: #fff8c5; color: #9a6700"


def _num(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return _e("yes" if value else "no") if isinstance(value, bool) else ""
    return _e(f"{value:.4g}") if isinstance(value, float) else _e(value)


def _ok(ok: Any) -> str:
    word, cls = ("ok", "ok") if ok else ("differs", "failed")
    return f'<span class="tcx-status tcx-status-{cls}">{word}</span>'


def _times(speedup: float) -> str:
    return f"{fmt_num(speedup)}× faster" if speedup >= 1 else f"{fmt_num(1 / speedup)}× slower"


def _side_noisy(stats: Data) -> bool:
    if isinstance(stats.get("noisy"), bool):
        return stats["noisy"]
    return stats.get("iqr_ms", 0) > NOISY_IQR_FRACTION * stats.get("median_ms", 0)


def timing_verdict(timing: Data) -> dict[str, Any]:
    """How far the measurement answers "is it faster?", in the words of the extension's
    Timing tab (model/timing.ts): severity ("ok" only for a steady, clear result),
    headline, which side is noisy, and what to do about it."""
    eager, compiled = timing.get("eager") or {}, timing.get("compiled") or {}
    speedup, interval = timing.get("speedup"), timing.get("speedup_interval")
    per_call = f"{fmt_duration(compiled.get('median_ms'))} vs {fmt_duration(eager.get('median_ms'))} per call"
    uncertain = isinstance(interval, list) and interval[0] <= 1 <= interval[1]
    if not isinstance(speedup, (int, float)):
        headline = (f"Speedup unknown: compiled {fmt_duration(compiled.get('median_ms'))} vs eager "
                    f"{fmt_duration(eager.get('median_ms'))} per call")
    elif uncertain:
        headline = (f"No clear difference between compiled and eager: {_times(speedup)} by the "
                    f"medians ({per_call}), but the speedup's 95% interval, "
                    f"{fmt_num(interval[0])}–{fmt_num(interval[1])}×, holds 1×")
    else:
        headline = f"Compiled is {_times(speedup)} than eager: {per_call}"
    noisy = [(side, stats) for side, stats in (("eager", eager), ("compiled", compiled))
             if _side_noisy(stats)]
    noise = None
    if noisy:
        said = []
        for i, (side, stats) in enumerate(noisy):
            iqr, median = stats.get("iqr_ms", 0), stats.get("median_ms", 0)
            share = f"{round(100 * iqr / median)}%" if median else "?"
            said.append(f"{side}'s {fmt_duration(iqr)} on {fmt_duration(median)} ({share})" if i else
                        f"{side}'s IQR is {fmt_duration(iqr)} on a {fmt_duration(median)} median ({share})")
        noise = "Noisy: " + ", ".join(said) + "."
    budget = timing.get("budget_s")
    advice = None
    if noise or uncertain:
        this_run = f"this run: {budget:g} s per side; " if isinstance(budget, (int, float)) else ""
        advice = (f"For a measurement to trust: a longer time budget ({this_run}time_budget_s= "
                  "in explore() and compare(), --time-budget in %%tcompile), a quieter machine, "
                  "fewer other processes.")
    busy = _busy(timing.get("machine"))
    if busy:
        advice = _busy_advice(timing["machine"]) + (f" {advice}" if advice else "")
    slower = isinstance(speedup, (int, float)) and speedup < 1
    severity = ("warning" if not isinstance(speedup, (int, float)) or uncertain or slower or noise
                or busy else "ok")
    return {"severity": severity, "headline": headline, "noise": noise, "busy": busy,
            "advice": advice}


def _busy(machine: Any) -> str | None:
    """Why the machine was busy during the samples (measure/machine.py), or None."""
    if not isinstance(machine, dict) or not machine.get("busy"):
        return None
    reasons = "; ".join(str(r) for r in machine.get("reasons") or []) or "see the figures"
    return (f"Busy machine: {reasons}. A busy machine slows every sample alike, so the spread "
            "does not show it: these times are not this code's.")


def _busy_advice(machine: Data) -> str:
    threads = machine.get("fit_threads")
    fit = (f", or torch.set_num_threads({threads}) to fit the cores other processes left free"
           if threads else "")
    return f"Quiet the machine (stop other jobs) and measure again{fit}."


def machine_line(machine: Data) -> str:
    """The figures behind ``busy``, in one line."""
    def cores(value: Any) -> str:
        return f"{value:.1f}" if isinstance(value, (int, float)) else "?"

    parts = [f"{cores(machine.get('process_cores'))} cores used by this process",
             f"{cores(machine.get('others_cores'))} by others, of {machine.get('cores')}",
             f"torch threads {machine.get('torch_threads')}"]
    if isinstance(machine.get("load_average"), (int, float)):
        parts.append(f"load average {machine['load_average']:.2f}")
    if isinstance(machine.get("throttled_share"), (int, float)):
        parts.append(f"throttled {machine['throttled_share']:.0%}")
    gpu = machine.get("gpu")
    if isinstance(gpu, dict):
        others = gpu.get("others") or 0
        parts.append(f"GPU shared with {others} other process(es)" if others
                     else "no other process on the GPU")
    window = machine.get("window_s")
    over = f" over {fmt_num(window)} s" if isinstance(window, (int, float)) else ""
    return f"{'busy' if machine.get('busy') else 'quiet'}: " + ", ".join(parts) + over


def _runtime_chart(timing: Data) -> str:
    sides = [(side, timing.get(side) or {}) for side in ("eager", "compiled")]
    extent = max(max(s.get("median_ms", 0), s.get("q3_ms", s.get("median_ms", 0))) for _, s in sides)
    axis = time_axis(extent * 1.05, "time per call")
    bars = []
    for side, s in sides:
        has_quartiles = isinstance(s.get("q1_ms"), (int, float)) and isinstance(s.get("q3_ms"), (int, float))
        has_max = isinstance(s.get("max_ms"), (int, float))
        bars.append(Bar(
            label=side, value=s.get("median_ms", 0), text=axis.fmt(s.get("median_ms", 0)),
            colour=BAR_COLOURS[side], sub=f"{s.get('samples')} samples",
            band=(s["q1_ms"], s["q3_ms"]) if has_quartiles else None,
            range=(s.get("min_ms", 0), s["max_ms"]) if has_max else None,
            off_scale=f"max {fmt_duration(s.get('max_ms'))}",
            title=f"{side}: median {fmt_duration(s.get('median_ms'))}, IQR {fmt_duration(s.get('iqr_ms'))}, "
                  f"min {fmt_duration(s.get('min_ms'))}, max {fmt_duration(s.get('max_ms'))}, "
                  f"{s.get('samples')} samples"))
    return axis_chart(axis, bars, "time per call, eager and compiled: medians with their IQR")


def _verdict(leaf: Data, random_cause: bool) -> str:
    if leaf.get("kind") == "not_compared":
        return '<span class="tcx-status">not compared</span>'
    if random_cause and not leaf.get("ok"):
        return '<span class="tcx-status tcx-status-random">differs (random ops)</span>'
    return _ok(leaf.get("ok"))


def _timing(timing: Data, compiled: bool = True) -> str:
    verdict = timing_verdict(timing)
    if not compiled:  # both sides ran eagerly: never an "ok"
        verdict = {**verdict, "severity": "warning", "headline": "Nothing was compiled: both "
                   f"sides ran eagerly, so this compares eager with eager ({verdict['headline']})"}
    pill = ('<span class="tcx-status tcx-status-ok">ok</span>' if verdict["severity"] == "ok"
            else f'<span class="tcx-status" style="{_WARNING_PILL}">warning</span>')
    parts = [f'<p class="tcx-findings tcx-timing-verdict">{pill} {_e(verdict["headline"])}</p>']
    said = "".join(f"<p>{_e(verdict[k])}</p>" for k in ("busy", "noise", "advice") if verdict[k])
    if said:
        parts.append(f'<div class="tcx-timing-warning" style="{_WARNING_BOX}">{said}</div>')
    parts.append(_runtime_chart(timing))
    parts.append('<p class="tcx-muted">Bars: medians, from 0. Whiskers: the middle half of the '
                 "samples (IQR). Thin line: min to max; a max past the axis is marked ▸, not "
                 "drawn to scale.</p>")
    rows = [[_e(side)] + [_num((timing.get(side) or {}).get(k)) for k in _TIMING_COLUMNS]
            for side in ("eager", "compiled")]
    speedup, even, interval = (timing.get("speedup"), timing.get("break_even_calls"),
                               timing.get("speedup_interval"))
    speedup_text = "—"
    if isinstance(speedup, (int, float)):
        speedup_text = f"{speedup:.3g}×" + (
            f"; 95% interval {fmt_num(interval[0])}–{fmt_num(interval[1])}×"
            if isinstance(interval, list) else "")
    facts = [
        ["speedup (eager median / compiled median)", _e(speedup_text)],
        ["compile time (first call, compile included)" if compiled
         else "first call (nothing compiled)", _e(f"{timing.get('compile_s', 0):.3g} s")],
        ["break-even (calls to pay back the compile)",
         _e(f"{even:.3g}") if isinstance(even, (int, float))
         else "never (compiled is not faster)"],
        ["device", _e(timing.get("device"))],
    ]
    if isinstance(timing.get("budget_s"), (int, float)):
        facts.append(["time budget", _e(f"{timing['budget_s']:g} s per side")])
    if isinstance(timing.get("machine"), dict):
        facts.append(["machine during the samples", _e(machine_line(timing["machine"]))])
    parts += [_table(_TIMING_HEADERS, rows, "tcx-timing-table"),
              _table(["", ""], facts, "tcx-timing-summary"),
              _note(f"Noisy: a side's IQR is over {NOISY_IQR_FRACTION:.0%} of its median. The "
                    "95% interval of the speedup comes from the paired samples (eager and "
                    "compiled are timed in alternation); when it holds 1, the measurement "
                    "cannot tell faster from slower.")]
    return _details("Timing", "\n".join(parts), cls="tcx-sub tcx-timing", open_=True)


def _truncated(leaf: Data) -> str:
    text = f"… {leaf.get('omitted') or 0} more leaves compared, not listed"
    if leaf.get("omitted_mismatches"):
        text += f" ({leaf['omitted_mismatches']} of them differ)"
    if leaf.get("limit_reached"):
        text += "; the comparison stopped at its leaf limit, the rest was not compared"
    return _e(text + " (truncated)")


def _leaf_rows(leaves: list[Any], random_cause: bool) -> list[list[str]]:
    """One row per leaf; ``random_cause`` when the check blamed random ops for differences."""
    rows = []
    for leaf in leaves:
        if not isinstance(leaf, dict):
            continue
        kind = leaf.get("kind")
        if kind == "truncated":
            rows.append(['<span class="tcx-note">…</span>', _verdict(leaf, random_cause), "", "", "",
                         f'<span class="tcx-note">{_truncated(leaf)}</span>'])
            continue
        if kind == "tensor":
            what = _c(f"{leaf.get('dtype')}[{', '.join(str(s) for s in leaf.get('shape') or [])}]")
            detail = (f"{_num(leaf.get('mismatched'))} of {_num(leaf.get('numel'))} elements "
                      f"off (rtol {_num(leaf.get('rtol'))}, atol {_num(leaf.get('atol'))})")
            if leaf.get("nan_inf_mismatch"):
                detail += f"; {_num(leaf['nan_inf_mismatch'])} NaN/inf differ"
            if not (leaf.get("shape_match", True) and leaf.get("dtype_match", True)):
                detail = "shape or dtype differs"
        elif kind == "not_compared":
            what = _c(leaf.get("type"))
            detail = _e(leaf.get("reason") or "not a tensor or a plain value")
        elif kind == "structure_mismatch":
            what = _e("structure")
            detail = (f"missing in compiled: {_c(leaf.get('expected'))}; "
                      f"only in compiled: {_c(leaf.get('actual'))}")
        elif kind == "value" and leaf.get("ok"):
            what, detail = _c(leaf.get("type")), _c(leaf.get("expected"))
        else:
            what = _c(leaf.get("type")) if kind == "value" else _e(kind)
            detail = (f"expected {_c(leaf.get('expected'))}, got {_c(leaf.get('actual'))}"
                      if leaf.get("expected") is not None or leaf.get("actual") is not None else "")
        # A compared tensor without a relative error: it differs where eager is 0.
        infinite = (kind == "tensor" and leaf.get("max_rel_err") is None
                    and isinstance(leaf.get("mismatched"), int))
        relative = "inf" if infinite else _num(leaf.get("max_rel_err"))
        rows.append([_c(leaf.get("path") or "(output)"), _verdict(leaf, random_cause), what,
                     _num(leaf.get("max_abs_err")), relative, detail])
    return rows


_LEAF_HEADERS = ["output", "verdict", "type", "max abs error", "max rel error", "detail"]


def _divergence(found: Data) -> str:
    rows = [["graph", _e(found.get("graph_index"))],
            ["node", _c(found.get("node"))],
            ["op / target", f"{_e(found.get('op'))} {_c(found.get('target'))}"],
            *divergence_of(found),
            ["user line", _location_with_code(found.get("source"))],
            ["kernels", _names(found.get("kernels") or []) or '<span class="tcx-muted">—</span>'],
            ["random ops", _names(found.get("random_ops") or [])
             or '<span class="tcx-muted">none</span>'],
            ["max abs error", _num(found.get("max_abs_err"))],
            ["max rel error", _num(found.get("max_rel_err"))],
            ["compiled prefixes tried", _num(found.get("probes"))]]
    return "<p><strong>First divergence</strong></p>" + _table(["", ""], rows,
                                                                "tcx-divergence-table")


def _reference(reference: Data) -> str:
    if not reference.get("available"):
        return _note(f"No float64 reference: {reference.get('reason')}")
    rows = [[_c(r.get("path")), _num(r.get("eager_err")), _num(r.get("compiled_err")),
             _e(r.get("compiled_vs_eager"))] for r in reference.get("outputs") or []]
    return "<p>Against a float64 eager run:</p>" + _table(
        ["output", "eager error", "compiled error", "compiled vs eager"], rows,
        "tcx-reference-table")


def _random_explanation(accuracy: Data) -> str | None:
    """Why random ops make eager and compiled differ, and what to do (plain text); None
    without a random cause."""
    cause, found = accuracy.get("cause"), accuracy.get("first_divergence")
    ops = ", ".join(accuracy.get("random_ops") or [])
    if cause == "random" and isinstance(found, dict):
        head = (f"Eager and Inductor draw different random numbers (node {found.get('node')} "
                f"runs {ops}), so these values differ by design, not because of a compiler error.")
    elif cause == "random_in_graph":
        head = (f"No single diverging node was found, but the graphs hold random ops ({ops}), "
                "and eager and Inductor draw different random numbers.")
    else:
        return None
    option = accuracy.get("fallback_random_option")
    fix = (f" To compare them, make Inductor use eager's random ops with {option}, or"
           if option else " To compare them,")
    return (head + fix + " create the random tensors outside the compiled code (seeded) and "
            "pass them in.")


_VERDICTS = {
    "random": "Compiled outputs differ from eager at a random op.",
    "random_in_graph": ("Compiled outputs differ from eager; random ops in the graphs may "
                        "explain it."),
}


def _accuracy(accuracy: Data) -> str:
    random = _random_explanation(accuracy)
    random_cause = random is not None
    verdict = ("Compiled outputs match eager within tolerance." if accuracy.get("ok")
               else gradient_verdict(accuracy)
               or _VERDICTS.get(accuracy.get("cause"), "Compiled outputs differ from eager."))
    parts = [f'<p class="tcx-findings">{_e(verdict)}</p>', _note(random) if random else "",
             _table(_LEAF_HEADERS, _leaf_rows(accuracy.get("outputs") or [], random_cause),
                    "tcx-accuracy-table")]
    inputs = accuracy.get("inputs_after_call") or []
    if inputs:
        parts.append("<p>Inputs after the call (in-place updates):</p>"
                     + _table(_LEAF_HEADERS, _leaf_rows(inputs, random_cause), "tcx-inputs-table"))
    parts.append(gradients_table(accuracy, _leaf_rows, _LEAF_HEADERS))
    if isinstance(accuracy.get("first_divergence"), dict):
        parts.append(_divergence(accuracy["first_divergence"]))
    elif not accuracy.get("ok") and not accuracy.get("divergence_error"):
        parts.append(_note("No graph node diverges on its own: the difference comes from "
                           "outside the captured graphs, or only from their combination."))
    parts.append(_error_block(accuracy.get("divergence_error"), "The divergence search failed"))
    if isinstance(accuracy.get("reference"), dict):
        parts.append(_reference(accuracy["reference"]))
    return _details("Accuracy", "\n".join(p for p in parts if p), cls="tcx-sub tcx-accuracy",
                    open_=True)


def measurements(data: Data) -> str:
    explore = data.get("explore")
    if not isinstance(explore, dict):
        return ""
    kwargs = explore.get("compile_kwargs") or {}
    parts = [f"<p>torch.compile({_e(', '.join(f'{k}={json.dumps(v)}' for k, v in kwargs.items()))})"
             f" on {_e(explore.get('device'))}</p>",
             _error_block(explore.get("error"), "Measuring against eager failed")]
    timing, accuracy = data.get("timing"), data.get("accuracy")
    parts.append(_timing(timing, bool((data.get("summary") or {}).get("graphs"))) if isinstance(timing, dict)
                 else _note("Not timed against eager."))
    parts.append(_accuracy(accuracy) if isinstance(accuracy, dict)
                 else _note("Not compared with eager."))
    parts.append(isolation_html(data))
    return _details("Eager vs compiled", "\n".join(p for p in parts if p),
                    cls="tcx-section tcx-measurements", open_=True, id_="tcx-measurements")
