"""The grid of ``compare()``: what both views show of it, decided here once when the grid is
built (measure/compare.py) and stored in it (and in each row document's ``comparison``
section): each row's status (from its accuracy), the fastest row that matches eager
(``best_row``) and whether to mark it as the one to pick (``winning_row``), the headline,
each row's speedup as the chart says it, the notes under the headline, and whether a
profiled row's advice held (``advice_check``)."""

from __future__ import annotations

import re
from typing import Any

from ..common.formatting import fmt_num
from .accuracy import RANDOM_CAUSES

Data = dict[str, Any]

HELD_RATIO = 1.1  # the advised row must be at least this much faster per call


def accuracy_status(accuracy: Data | None) -> str:
    """A row's status from its accuracy record: "ok" (outputs match, or were not compared),
    "random" (random ops explain the difference: eager and Inductor draw different random
    numbers), else "mismatch"."""
    if accuracy is None or accuracy["ok"]:
        return "ok"
    return "random" if accuracy.get("cause") in RANDOM_CAUSES else "mismatch"


def best_row(rows: list[Data]) -> int | None:
    """The fastest row that matched eager (the first of equals)."""
    ranked = [
        (r["speedup"], -i)
        for i, r in enumerate(rows)
        if r.get("status") == "ok" and isinstance(r.get("speedup"), (int, float))
    ]
    return -max(ranked)[1] if ranked else None


def _uncertain(row: Data) -> bool:
    interval = row.get("speedup_interval")
    return isinstance(interval, list) and interval[0] <= 1 <= interval[1]


def winning_row(rows: list[Data]) -> int | None:
    """The best row to mark as the one to pick (green): none when even it is slower than
    eager, beyond the noise."""
    best = best_row(rows)
    if best is not None and rows[best]["speedup"] < 1 and not _uncertain(rows[best]):
        return None
    return best


def headline(rows: list[Data]) -> str:
    """How many configurations, the fastest that matches eager, how many failed."""
    best = best_row(rows)
    failed = sum(1 for r in rows if r.get("status") == "error")
    said = [f"{len(rows)} configuration{'s' if len(rows) != 1 else ''}"]
    same = sum(len(r.get("same_runs") or []) for r in rows)
    if same:
        said[0] += f" ({same} more that torch runs identically, folded in)"
    if best is not None:
        row = rows[best]
        at = f"{row['label']} at {fmt_num(row['speedup'])}× the speed of eager"
        if _uncertain(row):
            said.append(f"fastest that matches eager: {at} (within the noise)")
        elif row["speedup"] < 1:
            said.append(
                f"every configuration that matches eager is slower than it; the fastest: {at}"
            )
        else:
            said.append(f"fastest that matches eager: {at}")
    else:
        said.append("none both ran and matched eager")
    if failed:
        said.append(f"{failed} failed")
    return "; ".join(said) + "."


def speedup_words(row: Data) -> Data:
    """The row's speedup as its bar says it (``text``, with why not to trust it: a busy
    machine, an interval that holds 1×, a noisy side) and its tooltip (``title``); a row
    with no speedup says why (failed, not timed)."""
    speedup = row.get("speedup")
    if not isinstance(speedup, (int, float)):
        failed = row.get("status") == "error"
        return {
            "text": "failed" if failed else "not timed",
            "title": row.get("error") or f"{row['label']}: not timed",
        }
    interval = row.get("speedup_interval")
    remark = (
        " (busy machine)"
        if row.get("busy")
        else " (unclear)"
        if _uncertain(row)
        else " (noisy)"
        if row.get("noisy")
        else ""
    )
    return {
        "text": f"{fmt_num(speedup)}×{remark}",
        "title": f"{row['label']}: {fmt_num(speedup)}× the speed of eager"
        + (
            f", 95% interval {fmt_num(interval[0])}–{fmt_num(interval[1])}×"
            if isinstance(interval, list)
            else ""
        ),
    }


def grid_notes(rows: list[Data]) -> list[str]:
    """What the grid says under its headline: how its compile times were taken."""
    hows = {row.get("cold_compile") for row in rows if row.get("status") != "error"}
    if len(hows) == 1 and None not in hows:
        return [f"Compile times are cold, every row alike: {hows.pop()}."]
    return []


def advice_check(rows: list[Data]) -> Data | None:
    """Whether a profiled default row's advice held in this grid: the row with the mode
    its verdict advises (same backend and ``dynamic``) against it, per call."""
    for base in rows:
        advised = base.get("advised_modes") or []
        if base["mode"] not in (None, "default") or not advised or not base["median_ms"]:
            continue
        for row in rows:
            if (
                row["mode"] in advised
                and row["backend"] == base["backend"]
                and row["dynamic"] == base["dynamic"]
                and row["median_ms"]
            ):
                ratio = base["median_ms"] / row["median_ms"]
                return {
                    "verdict": base["verdict"],
                    "mode": row["mode"],
                    "baseline": base["label"],
                    "row": row["label"],
                    "ratio": ratio,
                    "held": ratio >= HELD_RATIO,
                    "text": f"{base['label']} is {base['verdict']}, so the profile advised "
                    f'mode="{row["mode"]}": {row["label"]} is {ratio:.2f}× '
                    f"{'faster' if ratio >= 1 else 'as fast'} per call, so the "
                    f"advice {'held' if ratio >= HELD_RATIO else 'did not hold'}.",
                }
    return None


def error_line(error: str) -> str:
    """A failed row's error as its table cell leads with it: the first paragraph of torch's
    message, in one line."""
    first = re.split(r"\n\s*\n", error.strip())[0]
    return re.sub(r"\s*\n\s*", " ", first)


def decide_grid(rows: list[Data]) -> Data:
    """The grid's decisions, stored beside its rows (``rows`` get their ``speedup_words``
    and a failed one its ``error_line``, in place): ``best_row``, ``winning_row``,
    ``headline``, ``notes``, ``advice_check``."""
    for row in rows:
        row["speedup_words"] = speedup_words(row)
        if isinstance(row.get("error"), str):
            row["error_line"] = error_line(row["error"])
    return {
        "best_row": best_row(rows),
        "winning_row": winning_row(rows),
        "headline": headline(rows),
        "notes": grid_notes(rows),
        "advice_check": advice_check(rows),
    }
