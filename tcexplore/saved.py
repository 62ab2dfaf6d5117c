"""``tcexplore.load``: a saved document read back, one run's (a :class:`~tcexplore.Document`
with the decisions it was saved without, computed now) or a multi-rank one
(:class:`~tcexplore.Ranks`, each rank's document likewise)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .decided import Document, upgraded
from .document import DocumentError, read_json, validate
from .findings import listing
from .ranks import Ranks
from .ranks.build import headline

__all__ = ["load"]


def load(path: str | Path) -> Any:
    """Read a saved document back, validating it against the schema; a multi-rank document
    (``tcexplore ranks``) comes back as :class:`tcexplore.Ranks`."""
    data = read_json(path)
    try:
        validate(data)
    except DocumentError as exc:
        raise DocumentError(f"{path}: {exc}") from None
    if data.get("kind") == "ranks":
        for entry in data.get("ranks") or []:
            if isinstance(entry.get("document"), dict):
                upgraded(entry["document"])  # each rank's report draws what it lacks
        if "headline" not in data:  # saved before it was stored
            data["headline"] = headline(len(data["ranks"]), data["world_size"], data["divergence"])
            data["listing"] = listing.ranks(data["ranks"], data["divergence"])
        return Ranks(data, check=False)
    return Document(upgraded(data), check=False)  # saved before some decisions were stored
