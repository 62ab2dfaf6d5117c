"""A measurement that failed: named on the Overview, and counted in ``summary.failures``.

Each failure is kept where it happened, with what was measured before it (measure/
pipeline.py): measuring against eager (``explore.error``: the eager call, the timing or
the profile raised), the memory measurement (``memory.error``), the search for the first
diverging node (``accuracy.divergence_error``). This names each once, where the reader
looks first, with the tab that holds what was measured."""

from __future__ import annotations

from typing import Any

from .make import finding, tab_link

Data = dict[str, Any]

# (section, its error field, what failed, the tab that shows it)
MEASUREMENTS = (
    ("explore", "error", "Measuring against eager", ("accuracy", "Accuracy")),
    ("memory", "error", "The memory measurement", ("memory", "Where the memory goes")),
    (
        "accuracy",
        "divergence_error",
        "The search for the first diverging node",
        ("accuracy", "Accuracy"),
    ),
)


def failed(data: Data) -> list[tuple[str, Data, tuple[str, str]]]:
    """(what failed, its error record, its tab) for each measurement that failed."""
    out = []
    for section, field, what, tab in MEASUREMENTS:
        error = (
            (data.get(section) or {}).get(field) if isinstance(data.get(section), dict) else None
        )
        if isinstance(error, dict):
            out.append((what, error, tab))
    return out


def count(data: Data) -> int:
    """``summary.failures``: the failed compiles and the failed measurements."""
    compiles = sum(1 for c in data.get("compiles") or [] if c.get("status") == "failed")
    return compiles + len(failed(data))


def find(data: Data) -> list[Data]:
    found = []
    for what, error, (tab, label) in failed(data):
        message = str(error.get("message") or "").strip().splitlines()
        said = f"{error.get('type') or 'an error'}" + (f": {message[0]}" if message else "")
        found.append(
            finding(
                "failed_measurement",
                "warning",
                f"{what} failed: {said}",
                evidence=[tab_link(tab, label)],
                details=["What was measured before it is kept; the rest was not measured."],
            )
        )
    return found
