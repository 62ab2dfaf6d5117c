"""Rank lists as people read them (``ranks 0-62, 64``): in finding titles and reports."""

from __future__ import annotations

from collections.abc import Iterable


def ranks_text(ranks: Iterable[int]) -> str:
    """``[0, 1, 2, 5]`` -> ``ranks 0-2, 5``; ``[1]`` -> ``rank 1``."""
    ranks = sorted(ranks)
    runs: list[list[int]] = []
    for r in ranks:
        if runs and r == runs[-1][-1] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    parts = [f"{run[0]}-{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs]
    return ("rank " if len(ranks) == 1 else "ranks ") + ", ".join(parts)
