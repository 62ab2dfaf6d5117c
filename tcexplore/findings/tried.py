"""A fix that was tried: before and after (each an exploration of the same call, measured
the same way), whether it helped, and the sentence the views show. Decided here, once:
the measuring (measure/try_fixes.py) only hands over the two documents.

Helped is read from the evidence: fewer graphs, graph breaks or recompiles; faster per
call where the interval of the speedup (timing's own ~95% interval, the two sides timed
in alternation) lies above 1 and the speedup is beyond timing's noise threshold
(:data:`NOISY_IQR_FRACTION`: two builds of the same code can differ by a sure 2%); and
what the setting is for: compile time (caches on) or peak memory (a memory budget) lower
by more than that threshold (each is one measurement), outputs that now match eager
(fallback_random). Outputs that matched and now differ make it not help, whatever else
improved. No torch import."""

from __future__ import annotations

from typing import Any

from ..common.formatting import fmt_duration, format_bytes, plural, sig3
from .compile_time import compile_ms
from .timing import NOISY_IQR_FRACTION

Data = dict[str, Any]


def side(data: Data) -> Data:
    """One exploration's figures, as a try compares them."""
    summary = data.get("summary") or {}
    peaks = (data.get("memory") or {}).get("peak_bytes") or {}
    accuracy = data.get("accuracy")
    return {
        "graphs": summary.get("graphs"),
        "graph_breaks": summary.get("graph_breaks"),
        "recompiles": summary.get("recompiles"),
        "compile_s": sum(compile_ms(c) for c in data.get("compiles") or []) / 1e3,
        "median_ms": None,  # from the try's own timing, both sides in alternation
        "peak_bytes": (peaks.get("compiled") or {}).get("above_before_bytes"),
        "outputs_match": accuracy.get("ok") if isinstance(accuracy, dict) else None,
    }


def tried(
    fix: Data,
    before: Data | None,
    after: Data | None,
    error: Data | None,
    interval: list[float] | None = None,
) -> Data:
    """The record a finding holds: ``label`` and ``setting``, ``before``/``after``
    (:func:`side`, with ``median_ms`` of the try's timing), ``interval`` (of the speedup,
    before's time per call over after's), ``speed`` (faster, slower, same or None),
    ``ratio``, ``helped``, ``sentence``; ``error`` when the variant raised."""
    record: Data = {
        "label": fix["label"],
        "setting": fix["setting"],
        "before": before,
        "after": after,
        "interval": interval,
        "speed": None,
        "ratio": None,
        "helped": False,
        "error": error,
    }
    if error is not None or before is None or after is None:
        why = f"{error['type']}: {error['message']}" if error else "nothing was measured"
        record["sentence"] = f"Tried {fix['label']}: it failed ({why})."
        return record
    record["speed"], record["ratio"] = _speed(before, after, interval)
    better = _better(before, after, record["speed"], fix["setting"]["name"])
    broke = before["outputs_match"] is True and after["outputs_match"] is False
    record["helped"] = bool(better) and not broke
    warm = fix["setting"]["name"] == "bypass_caches"  # caches on: its second compile is measured
    parts = _parts(before, after, record["speed"], record["ratio"], warm)
    record["sentence"] = (
        f"Tried: {fix['label']} — {', '.join(parts)}."
        if record["helped"]
        else f"Tried {fix['label']}: did not help ({', '.join(parts)})."
    )
    return record


def _speed(
    before: Data, after: Data, interval: list[float] | None
) -> tuple[str | None, float | None]:
    b, a = before["median_ms"], after["median_ms"]
    if not (_number(b) and _number(a)) or a <= 0:
        return None, None
    if not isinstance(interval, list):
        return None, b / a
    ratio = b / a
    if interval[0] > 1 and ratio >= 1 + NOISY_IQR_FRACTION:
        return "faster", ratio
    if interval[1] < 1 and 1 / ratio >= 1 + NOISY_IQR_FRACTION:
        return "slower", ratio
    return "same", ratio


# What a setting is for, where that is not the graphs or the speed: a figure measured
# once, which counts for that setting only.
AIMS = {
    "bypass_caches": "compile_s",
    "activation_memory_budget": "peak_bytes",
    "fallback_random": "outputs_match",
}


def _better(before: Data, after: Data, speed: str | None, setting: str) -> list[str]:
    """What improved, by name."""
    out = [
        key
        for key in ("graphs", "graph_breaks", "recompiles")
        if _number(before[key]) and _number(after[key]) and after[key] < before[key]
    ]
    if speed == "faster":
        out.append("speed")
    aim = AIMS.get(setting)
    if aim in ("compile_s", "peak_bytes") and _lower(before[aim], after[aim]):
        out.append(aim)
    if aim == "outputs_match" and before[aim] is False and after[aim] is True:
        out.append(aim)
    return out


def _lower(before: Any, after: Any) -> bool:
    return _number(before) and _number(after) and after < before * (1 - NOISY_IQR_FRACTION)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count(after: Any, before: Any, word: str, always: bool) -> str | None:
    if not _number(after) or (not always and not after and not before):
        return None
    said = f"no {word}s" if after == 0 else plural(after, word)
    return said if after == before else f"{said} (was {before})"


def _parts(
    before: Data, after: Data, speed: str | None, ratio: float | None, warm: bool
) -> list[str]:
    parts = [
        _count(after["graphs"], before["graphs"], "graph", True),
        _count(after["graph_breaks"], before["graph_breaks"], "break", True),
        _count(after["recompiles"], before["recompiles"], "recompile", False),
    ]
    if speed == "faster" or speed == "slower":
        times = ratio if speed == "faster" else 1 / ratio
        parts.append(f"{sig3(times)}× {speed}")
    elif speed == "same":
        parts.append(f"as fast within the noise ({sig3(ratio)}×)")
    if before["compile_s"] and after["compile_s"]:
        parts.append(
            f"compile {fmt_duration(after['compile_s'] * 1e3)}{' on a warm start' if warm else ''} "
            f"(was {fmt_duration(before['compile_s'] * 1e3)})"
        )
    if _number(before["peak_bytes"]) and _number(after["peak_bytes"]):
        parts.append(
            f"peak {format_bytes(after['peak_bytes'])} (was {format_bytes(before['peak_bytes'])})"
        )
    if after["outputs_match"] is not None:
        parts.append("outputs match" if after["outputs_match"] else "outputs differ")
    return [part for part in parts if part]


def attach(data: Data, found: list[Data]) -> None:
    """Each finding whose fix was tried (the document's ``tries``, by the fix's label)
    holds that try as ``tried``."""
    tries = {t.get("label"): t for t in data.get("tries") or [] if isinstance(t, dict)}
    for f in found:
        fix = f.get("fix")
        if isinstance(fix, dict) and fix.get("label") in tries:
            f["tried"] = tries[fix["label"]]
        also = [tries[x["label"]] for x in f.get("also_fixes") or [] if x.get("label") in tries]
        if also:
            f["also_tried"] = also
            f["details"] = [
                *f.get("details", []),
                won([f["tried"], *also] if "tried" in f else also),
            ]


def won(records: list[Data]) -> str:
    """Which of several tried settings was fastest, each with its speedup."""
    timed = [r for r in records if isinstance(r.get("ratio"), (int, float))]
    if not timed:
        return "Tried: " + ", ".join(r["label"] for r in records) + " (none could be timed)"
    best = max(timed, key=lambda r: r["ratio"])
    said = ", ".join(f"{r['label']} {sig3(r['ratio'])}×" for r in timed)
    verdict = "won" if best.get("helped") else "was fastest, and did not help"
    return f"Tried, each timed back to back against the same baseline: {said}; {best['label']} {verdict}"
