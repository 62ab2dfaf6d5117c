"""File names of per-rank outputs: ``out.json`` becomes ``out.rank0.json``, ``out.rank1.json``…

``tcexplore run`` and ``tcexplore import`` write them; ``tcexplore ranks out.json`` finds
them again.
"""

from __future__ import annotations

import glob
import re
from pathlib import Path

_RANK_SUFFIX = re.compile(r"\.rank(\d+)$")


def per_rank_path(path: str | Path, rank: int) -> Path:
    """``out.json`` -> ``out.rank1.json``; a name without a suffix gets ``.rank1`` appended."""
    path = Path(path)
    return path.with_name(
        f"{path.stem}.rank{rank}{path.suffix}" if path.suffix else f"{path.name}.rank{rank}"
    )


def rank_files(path: str | Path) -> list[Path]:
    """The per-rank files written for ``path`` (``out.json`` -> ``out.rank*.json``), by rank."""
    path = Path(path)
    stem, suffix = (path.stem, path.suffix) if path.suffix else (path.name, "")
    found = []
    for candidate in path.parent.glob(f"{glob.escape(stem)}.rank*{suffix}"):
        name = candidate.name[: len(candidate.name) - len(suffix)] if suffix else candidate.name
        match = _RANK_SUFFIX.search(name)
        if match and name[: match.start()] == stem:
            found.append((int(match.group(1)), candidate))
    return [p for _, p in sorted(found)]


def per_input_path(path: str | Path, index: int) -> Path:
    """``out.json`` -> ``out.input3.json``: the document of the fourth input, until its rank
    is settled and it is renamed ``out.rank<N>.json``."""
    path = Path(path)
    return path.with_name(
        f"{path.stem}.input{index}{path.suffix}" if path.suffix else f"{path.name}.input{index}"
    )
