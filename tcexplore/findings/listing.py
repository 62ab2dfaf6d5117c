"""How a document is named where several are listed (JupyterLab's sidebar of a notebook's
tcexplore outputs): its ``listing``, ``{label, detail}``, decided here and stored in the
document, so the list says what the document's own views say (the timing verdict's words,
not the raw ratio of medians; the accuracy verdict's, random ops included)."""

from __future__ import annotations

from typing import Any

from ..common.formatting import plural
from .timing import compiled_anything, timing_verdict
from .user_terms import user_function

Data = dict[str, Any]

SHOWN_FUNCTIONS = 3


def _accuracy_words(accuracy: Any) -> str | None:
    if not isinstance(accuracy, dict) or not isinstance(accuracy.get("ok"), bool):
        return None
    if accuracy["ok"]:
        return "outputs match"
    verdict = accuracy.get("verdict") if isinstance(accuracy.get("verdict"), dict) else {}
    if verdict.get("severity") == "warning":  # random ops explain it
        return "outputs differ (random ops)"
    outputs_ok = all(r.get("ok") for r in accuracy.get("outputs") or [] if isinstance(r, dict))
    return "gradients DIFFER" if outputs_ok else "outputs DIFFER"


def one_run(data: Data) -> Data:
    """A one-run document: the user's functions it compiled (a resume function Dynamo
    made after a graph break is its user's function, never named), its counts, and the
    timing and accuracy verdicts in a few words."""
    compiles = [c for c in data.get("compiles") or [] if isinstance(c, dict)]
    named = [
        f for f in ((c.get("frame") or {}).get("function") for c in compiles) if isinstance(f, str)
    ]
    frames = list(dict.fromkeys(user_function(f) for f in named))
    summary = data.get("summary") or {}
    parts = [
        plural(len(compiles), "compile"),
        plural(int(summary.get("graph_breaks") or 0), "break"),
        plural(int(summary.get("recompiles") or 0), "recompile"),
    ]
    timing = data.get("timing")
    if isinstance(timing, dict):  # saved before verdicts had their short words: decided now
        verdict = timing.get("verdict") or {}
        short = verdict.get("short") or timing_verdict(timing, compiled_anything(data))["short"]
        parts.append(short)
    accuracy = _accuracy_words(data.get("accuracy"))
    if accuracy:
        parts.append(accuracy)
    if frames:
        label = ", ".join(frames[:SHOWN_FUNCTIONS]) + (", …" if len(frames) > 3 else "")
    else:
        label = "compiles" if compiles else "no compiles"
    return {"label": label, "detail": " · ".join(parts)}


def grid(rows: list[Data]) -> Data:
    """A compare() grid: how many configurations, how many failed."""
    failed = sum(1 for r in rows if r.get("status") == "error")
    return {
        "label": f"{plural(len(rows), 'configuration')} compared",
        "detail": f"{failed} failed" if failed else "all ran",
    }


def ranks(entries: list[Data], divergence: list[Data]) -> Data:
    """A multi-rank document: how many ranks, how many divergence findings."""
    return {
        "label": f"{plural(len(entries), 'rank')} side by side",
        "detail": plural(len(divergence), "divergence") if divergence else "no divergence",
    }
