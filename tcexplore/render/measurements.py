"""The "Eager vs compiled" section: what ``explore()`` or ``%%tcompile`` measured.

Timing (medians with their spread, speedup, compile time, break-even), accuracy (one
row per output leaf with its path, the inputs after the call, the gradients, the first
diverging graph node with its user line and kernels, random ops named as the cause where
they are one) and a failure of the measurement itself. Every verdict and label here was
decided by findings/ (``timing["verdict"]``, ``accuracy["verdict"]``, each leaf's
``label``); this module only draws them.
"""

from __future__ import annotations

import json
from typing import Any

from ..common.axis import time_axis
from ..common.formatting import fmt_duration, fmt_num
from .bars import BAR_COLOURS, Bar, axis_chart
from .isolation import divergence_of, gradients_table, isolation_html, state_table
from .markup import Data, _c, _details, _e, _error_block, _location_with_code, _names, _note, _table

_TIMING_COLUMNS = (
    "median_ms",
    "iqr_ms",
    "q1_ms",
    "q3_ms",
    "min_ms",
    "max_ms",
    "samples",
    "inner",
    "warmup_calls",
    "noisy",
)
_TIMING_HEADERS = [
    "",
    "median (ms)",
    "IQR (ms)",
    "Q1 (ms)",
    "Q3 (ms)",
    "min (ms)",
    "max (ms)",
    "samples",
    "calls per sample",
    "warm-up calls",
    "noisy",
]
_WARNING_BOX = (
    "border-left: 4px solid #d4a72c; background: #fff8c5; padding: 2px 8px; margin: 4px 0"
)
_WARNING_PILL = "background: #fff8c5; color: #9a6700"
# A leaf's state (findings/accuracy.py) -> the look of its label.
_STATE_CLASS = {
    "match": " tcx-status-ok",
    "mismatch": " tcx-status-failed",
    "random": " tcx-status-random",
    "other": "",
}
OLD_TIMING = (
    "This document was saved before tcexplore stored its timing verdict: "
    "tcexplore.load() computes it (save it again to keep it)."
)
OLD_ACCURACY = (
    "This document was saved before tcexplore stored its accuracy labels: "
    "tcexplore.load() computes them (save it again to keep them)."
)


def _num(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return _e("yes" if value else "no") if isinstance(value, bool) else ""
    return _e(f"{value:.4g}") if isinstance(value, float) else _e(value)


def _runtime_chart(timing: Data) -> str:
    sides = [(side, timing.get(side) or {}) for side in ("eager", "compiled")]
    extent = max(
        max(s.get("median_ms", 0), s.get("q3_ms", s.get("median_ms", 0))) for _, s in sides
    )
    axis = time_axis(extent * 1.05, "time per call")
    bars = []
    for side, s in sides:
        has_quartiles = isinstance(s.get("q1_ms"), (int, float)) and isinstance(
            s.get("q3_ms"), (int, float)
        )
        has_max = isinstance(s.get("max_ms"), (int, float))
        bars.append(
            Bar(
                label=side,
                value=s.get("median_ms", 0),
                text=axis.fmt(s.get("median_ms", 0)),
                colour=BAR_COLOURS[side],
                sub=f"{s.get('samples')} samples",
                band=(s["q1_ms"], s["q3_ms"]) if has_quartiles else None,
                range=(s.get("min_ms", 0), s["max_ms"]) if has_max else None,
                off_scale=f"max {fmt_duration(s.get('max_ms'))}",
                title=f"{side}: median {fmt_duration(s.get('median_ms'))}, IQR {fmt_duration(s.get('iqr_ms'))}, "
                f"min {fmt_duration(s.get('min_ms'))}, max {fmt_duration(s.get('max_ms'))}, "
                f"{s.get('samples')} samples",
            )
        )
    return axis_chart(axis, bars, "time per call, eager and compiled: medians with their IQR")


def _verdict(leaf: Data) -> str:
    """The leaf's label as findings/accuracy.py decided it; nothing without one."""
    if "label" not in leaf:
        return ""
    look = _STATE_CLASS.get(str(leaf.get("state")), "")
    return f'<span class="tcx-status{look}">{_e(leaf["label"])}</span>'


def _timing(timing: Data) -> str:
    verdict = timing.get("verdict")
    if not isinstance(verdict, dict) or "measurement" not in verdict:
        return _details("Timing", _note(OLD_TIMING), cls="tcx-sub tcx-timing", open_=True)
    pill = (
        '<span class="tcx-status tcx-status-ok">ok</span>'
        if verdict["severity"] == "ok"
        else f'<span class="tcx-status" style="{_WARNING_PILL}">warning</span>'
    )
    parts = [f'<p class="tcx-findings tcx-timing-verdict">{pill} {_e(verdict["headline"])}</p>']
    said = "".join(
        f"<p>{_e(verdict[k])}</p>" for k in ("busy", "noise", "advice") if verdict.get(k)
    )
    if said:
        parts.append(f'<div class="tcx-timing-warning" style="{_WARNING_BOX}">{said}</div>')
    parts.append(_runtime_chart(timing))
    parts.append(
        '<p class="tcx-muted">Bars: medians, from 0. Whiskers: the middle half of the '
        "samples (IQR). Thin line: min to max; a max past the axis is marked ▸, not "
        "drawn to scale.</p>"
    )
    rows = [
        [_e(side)] + [_num((timing.get(side) or {}).get(k)) for k in _TIMING_COLUMNS]
        for side in ("eager", "compiled")
    ]
    speedup, interval = timing.get("speedup"), timing.get("speedup_interval")
    speedup_text = "—"
    if isinstance(speedup, (int, float)):
        speedup_text = f"{fmt_num(speedup)}×" + (
            f"; 95% interval {fmt_num(interval[0])}–{fmt_num(interval[1])}×"
            if isinstance(interval, list)
            else ""
        )
    facts = [
        ["speedup (eager median / compiled median)", _e(speedup_text)],
        [_e(verdict["first_call"]), _e(fmt_duration(timing.get("compile_s", 0) * 1000))],
        ["break-even (calls to pay back the compile)", _e(verdict.get("break_even") or "—")],
        ["device", _e(timing.get("device"))],
        ["measurement", _e(verdict["measurement"])],
    ]
    if isinstance(timing.get("budget_s"), (int, float)):
        facts.append(["time budget", _e(f"{timing['budget_s']:g} s per side")])
    if verdict.get("machine"):
        facts.append(["machine during the samples", _e(verdict["machine"])])
    parts += [
        _table(_TIMING_HEADERS, rows, "tcx-timing-table"),
        _table(["", ""], facts, "tcx-timing-summary"),
        _note(
            "The 95% interval of the speedup comes from the paired samples (eager and "
            "compiled are timed in alternation); when it holds 1, the measurement "
            "cannot tell faster from slower."
        ),
    ]
    return _details("Timing", "\n".join(parts), cls="tcx-sub tcx-timing", open_=True)


def _truncated(leaf: Data) -> str:
    text = f"… {leaf.get('omitted') or 0} more leaves compared, not listed"
    if leaf.get("omitted_mismatches"):
        text += f" ({leaf['omitted_mismatches']} of them differ)"
    if leaf.get("limit_reached"):
        text += "; the comparison stopped at its leaf limit, the rest was not compared"
    return _e(text + " (truncated)")


def _leaf_rows(leaves: list[Any]) -> list[list[str]]:
    """One row per leaf, with the label findings/accuracy.py gave it."""
    rows = []
    for leaf in leaves:
        if not isinstance(leaf, dict):
            continue
        kind = leaf.get("kind")
        if kind == "truncated":
            rows.append(
                [
                    '<span class="tcx-note">…</span>',
                    _verdict(leaf),
                    "",
                    "",
                    "",
                    f'<span class="tcx-note">{_truncated(leaf)}</span>',
                ]
            )
            continue
        if kind == "tensor":
            what = _c(f"{leaf.get('dtype')}[{', '.join(str(s) for s in leaf.get('shape') or [])}]")
            detail = (
                f"{_num(leaf.get('mismatched'))} of {_num(leaf.get('numel'))} elements "
                f"off (rtol {_num(leaf.get('rtol'))}, atol {_num(leaf.get('atol'))})"
            )
            if leaf.get("nan_inf_mismatch"):
                detail += f"; {_num(leaf['nan_inf_mismatch'])} NaN/inf differ"
            if not (leaf.get("shape_match", True) and leaf.get("dtype_match", True)):
                detail = "shape or dtype differs"
        elif kind == "not_compared":
            what = _c(leaf.get("type"))
            detail = _e(leaf.get("reason") or "not a tensor or a plain value")
        elif kind == "structure_mismatch":
            what = _e("structure")
            detail = (
                f"missing in compiled: {_c(leaf.get('expected'))}; "
                f"only in compiled: {_c(leaf.get('actual'))}"
            )
        elif kind == "value" and leaf.get("ok"):
            what, detail = _c(leaf.get("type")), _c(leaf.get("expected"))
        else:
            what = _c(leaf.get("type")) if kind == "value" else _e(kind)
            detail = (
                f"expected {_c(leaf.get('expected'))}, got {_c(leaf.get('actual'))}"
                if leaf.get("expected") is not None or leaf.get("actual") is not None
                else ""
            )
        # A compared tensor without a relative error: it differs where eager is 0.
        infinite = (
            kind == "tensor"
            and leaf.get("max_rel_err") is None
            and isinstance(leaf.get("mismatched"), int)
        )
        relative = "inf" if infinite else _num(leaf.get("max_rel_err"))
        rows.append(
            [
                _c(leaf.get("path") or "(output)"),
                _verdict(leaf),
                what,
                _num(leaf.get("max_abs_err")),
                relative,
                detail,
            ]
        )
    return rows


_LEAF_HEADERS = ["output", "verdict", "type", "max abs error", "max rel error", "detail"]


def _divergence(found: Data) -> str:
    rows = [
        ["graph", _e(found.get("graph_index"))],
        ["node", _c(found.get("node"))],
        ["op / target", f"{_e(found.get('op'))} {_c(found.get('target'))}"],
        *divergence_of(found),
        ["user line", _location_with_code(found.get("source"))],
        ["kernels", _names(found.get("kernels") or []) or '<span class="tcx-muted">—</span>'],
        [
            "random ops",
            _names(found.get("random_ops") or []) or '<span class="tcx-muted">none</span>',
        ],
        ["max abs error", _num(found.get("max_abs_err"))],
        ["max rel error", _num(found.get("max_rel_err"))],
        ["compiled prefixes tried", _num(found.get("probes"))],
    ]
    return "<p><strong>First divergence</strong></p>" + _table(
        ["", ""], rows, "tcx-divergence-table"
    )


def _reference(reference: Data) -> str:
    if not reference.get("available"):
        return _note(f"No float64 reference: {reference.get('reason')}")
    rows = [
        [
            _c(r.get("path")),
            _num(r.get("eager_err")),
            _num(r.get("compiled_err")),
            _e(r.get("compiled_vs_eager")),
        ]
        for r in reference.get("outputs") or []
    ]
    return "<p>Against a float64 eager run:</p>" + _table(
        ["output", "eager error", "compiled error", "compiled vs eager"],
        rows,
        "tcx-reference-table",
    )


def _accuracy(accuracy: Data) -> str:
    verdict = accuracy.get("verdict")
    if not isinstance(verdict, dict):
        return _details("Accuracy", _note(OLD_ACCURACY), cls="tcx-sub tcx-accuracy", open_=True)
    explained = " ".join(t for t in (verdict.get("why"), verdict.get("advice")) if t)
    parts = [
        f'<p class="tcx-findings">{_e(verdict["headline"])}</p>',
        _note(explained) if explained else "",
        _table(_LEAF_HEADERS, _leaf_rows(accuracy.get("outputs") or []), "tcx-accuracy-table"),
    ]
    inputs = accuracy.get("inputs_after_call") or []
    if inputs:
        parts.append(
            "<p>Inputs after the call (in-place updates):</p>"
            + _table(_LEAF_HEADERS, _leaf_rows(inputs), "tcx-inputs-table")
        )
    parts.append(gradients_table(accuracy, _leaf_rows, _LEAF_HEADERS))
    parts.append(state_table(accuracy, _leaf_rows, _LEAF_HEADERS))
    if isinstance(accuracy.get("first_divergence"), dict):
        parts.append(_divergence(accuracy["first_divergence"]))
    parts.append(_error_block(accuracy.get("divergence_error"), "The divergence search failed"))
    if isinstance(accuracy.get("reference"), dict):
        parts.append(_reference(accuracy["reference"]))
    return _details(
        "Accuracy", "\n".join(p for p in parts if p), cls="tcx-sub tcx-accuracy", open_=True
    )


def measurements(data: Data) -> str:
    explore = data.get("explore")
    if not isinstance(explore, dict):
        return ""
    kwargs = explore.get("compile_kwargs") or {}
    parts = [
        f"<p>torch.compile({_e(', '.join(f'{k}={json.dumps(v)}' for k, v in kwargs.items()))})"
        f" on {_e(explore.get('device'))}</p>",
        _error_block(explore.get("error"), "Measuring against eager failed"),
    ]
    timing, accuracy = data.get("timing"), data.get("accuracy")
    parts.append(_timing(timing) if isinstance(timing, dict) else _note("Not timed against eager."))
    parts.append(
        _accuracy(accuracy) if isinstance(accuracy, dict) else _note("Not compared with eager.")
    )
    parts.append(isolation_html(data))
    return _details(
        "Eager vs compiled",
        "\n".join(p for p in parts if p),
        cls="tcx-section tcx-measurements",
        open_=True,
        id_="tcx-measurements",
    )
