"""Why a kernel runs far below both roofs, from what was measured during its launches.

A roofline class alone misleads for such a kernel: ``(x * 2 + 1).tanh() * x`` writing a
fresh 64 MB output is "memory-bound" at 0.05 of the bandwidth roof, yet moving fewer bytes
would not help. Below ``BELOW`` of its roof a kernel gets ``below_roof``:

* ``page_faults``: the minor page faults the process took during its launches (counted with
  ``getrusage`` around each launch by ``instrument``), per launch, and the time they
  plausibly take (``fault_time_s``: faults times the time one takes on this machine,
  ``peaks.fault_us``). The reason is ``page_faults`` when they take at least
  ``FAULT_SHARE`` of the launch: its output is fresh memory, touched for the first time.
* ``transcendentals``: the transcendental functions the kernel's code calls (the roofline
  counts each as one operation, as cheap as an add). The reason is ``transcendentals``
  when the faults do not explain the time and the code calls any.
* otherwise ``unexplained``: neither shows in what was measured (a busy machine, too few
  threads, work the per-element count does not see).

The step's advice follows the reason of the kernels below their roof
(findings/step_verdict.py).
"""

from __future__ import annotations

import re
from typing import Any

BELOW = 0.2
FAULT_SHARE = 0.25
PAGE_BYTES = 4096
_TRANSCENDENTAL = re.compile(
    r"\b(tanh|exp2?|expm1|log(?:1p|2|10)?|sin|cos|tan|asin|acos|atan2?|sinh|cosh|asinh|"
    r"acosh|atanh|erfc?|erfinv|sigmoid|pow|lgamma|digamma)\s*\("
)


def transcendentals(source: str) -> list[str]:
    """The transcendental functions a kernel's code calls, once each, sorted."""
    return sorted(set(_TRANSCENDENTAL.findall(source or "")))


def _reason(row: dict[str, Any], info: dict[str, Any], launch_s: float) -> str:
    if info.get("fault_time_s") is not None:
        if info["fault_time_s"] >= FAULT_SHARE * launch_s:
            return "page_faults"
    elif (info.get("page_faults") or 0) * PAGE_BYTES >= FAULT_SHARE * (row.get("bytes") or 0) > 0:
        return "page_faults"  # no time per fault here: a quarter of its bytes were fresh pages
    return "transcendentals" if info["transcendentals"] else "unexplained"


def annotate(
    rows: list[dict[str, Any]], sources: dict[int, str], peaks: dict[str, Any], device: str
) -> None:
    """Give each kernel far below its roof (efficiency under ``BELOW``, not latency-bound)
    its ``below_roof``; ``sources`` holds the rows' kernel code by row position."""
    fault_s = (peaks.get("fault_us") or 0) / 1e6
    for i, row in enumerate(rows):
        row.pop("below_roof", None)
        efficiency, launch_s = row.get("efficiency"), (row.get("mean_us") or 0) / 1e6
        if (
            efficiency is None
            or efficiency >= BELOW
            or row.get("bound") in (None, "latency")
            or not launch_s
        ):
            continue
        faults = row.get("page_faults") if device == "cpu" else None
        info: dict[str, Any] = {
            "page_faults": faults,
            "transcendentals": transcendentals(sources.get(i, "")),
        }
        if faults is not None and fault_s:
            info["fault_time_s"] = faults * fault_s
            info["fault_share"] = min(1.0, faults * fault_s / launch_s)
        info["reason"] = _reason(row, info, launch_s)
        row["below_roof"] = info
