"""Why a kernel runs far below its roof (the profile's ``below_roof``), as one short text
for the kernel table; extension/src/model/belowroof.ts spells it the same way."""

from __future__ import annotations

from typing import Any


def below_roof_text(row: dict[str, Any]) -> str:
    below = row.get("below_roof")
    if not below:
        return "—"
    names = below.get("transcendentals") or []
    math = f"transcendentals: {', '.join(names)}" if names else ""
    share = (f" (~{round(below['fault_share'] * 100)}% of its time)"
             if below.get("fault_share") is not None else "")
    faults = f"page faults: {round(below.get('page_faults') or 0)} per launch{share}"
    if below.get("reason") == "page_faults":
        return f"{faults}; {math}" if math else faults
    if below.get("reason") == "transcendentals":
        return f"math-bound, {math}" + (f"; {faults}" if below.get("page_faults") else "")
    return "unexplained (no page faults, no transcendental math)"
