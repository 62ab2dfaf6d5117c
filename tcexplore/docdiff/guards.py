"""The guard diff of two paired compiles: guards compared by their keys as multisets, those
only in b added, those only in a removed. As ``extension/src/model/diffguards.ts``."""

from __future__ import annotations

from .identity import Data, guard_key


def _guard_view(guard: Data) -> Data:
    return {
        "type": guard.get("type"),
        "source": guard.get("source"),
        "expression": guard.get("expression"),
        "user_code": guard.get("user_code"),
    }


def _only_in(mine: list[Data], theirs: list[Data]) -> list[Data]:
    """Guards of ``mine`` that ``theirs`` lacks, counting repeats."""
    counts: dict[str, int] = {}
    for guard in theirs:
        key = guard_key(guard)
        counts[key] = counts.get(key, 0) + 1
    left = []
    for guard in mine:
        key = guard_key(guard)
        if counts.get(key, 0) > 0:
            counts[key] -= 1
        else:
            left.append(_guard_view(guard))
    return left


def guards(ga: list[Data], gb: list[Data]) -> Data:
    """The guards only in ``gb`` (added) and only in ``ga`` (removed)."""
    return {"added": _only_in(gb, ga), "removed": _only_in(ga, gb)}
