"""The rank inputs a multi-rank view is built from, whatever the user points at.

A source is a :class:`~tcexplore.Document` (or its dict), a saved document, a TORCH_TRACE
log, a folder (the one ``TORCH_TRACE`` named: every log or document in it, the other files
skipped with why, traces/folder.py), or the ``--json`` path given to ``tcexplore run``
under a launcher (``out.json`` stands for ``out.rank0.json``, ``out.rank1.json``…).
Sources are only found here, not read: each is read where its digest is made
(:mod:`.digest`), possibly in another process, and its rank is settled once all are read
(:mod:`.settle`). A missing input raises :class:`~tcexplore.DocumentError` naming it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..decided import Document
from ..document import DocumentError
from ..traces.folder import Skipped, folder_files
from .files import rank_files


@dataclass
class RankSource:
    kind: str  # "document" (a file or an in-memory document) or "trace" (a log file)
    path: str | None
    document: Document | None = None  # an in-memory one: read in this process only
    order: int = 0  # its place among the inputs


@dataclass
class Inputs:
    sources: list[RankSource]
    skipped: list[Skipped]  # files of the folders given that are not read, with why


def find_sources(sources: Iterable[Any]) -> Inputs:
    found: list[RankSource] = []
    skipped: list[Skipped] = []
    for source in sources:
        found.extend(_found(source, skipped))
    if not found and not skipped:
        raise DocumentError("no rank documents or TORCH_TRACE logs were given")
    for order, source in enumerate(found):
        source.order = order
    return Inputs(found, skipped)


def _found(source: Any, skipped: list[Skipped]) -> list[RankSource]:
    if isinstance(source, Document):
        return [RankSource("document", None, source)]
    if isinstance(source, dict):
        return [RankSource("document", None, Document(source))]
    path = Path(source)
    if path.is_dir():
        files, left = folder_files(path)
        if not files and not left:
            raise DocumentError(f"{path} holds no TORCH_TRACE log or document: it is empty")
        skipped.extend(left)
        return [RankSource(kind, str(p)) for p, kind in files]
    if path.is_file():
        return [RankSource(_kind(path), str(path))]
    per_rank = rank_files(path)
    if not per_rank:
        raise DocumentError(
            f"no such file or directory: {path} (nor {path.stem}.rank*{path.suffix} beside it)"
        )
    return [RankSource(_kind(p), str(p)) for p in per_rank]


def _kind(path: Path) -> str:
    """A saved document is a JSON object; anything else is read as a log."""
    with path.open("rb") as f:
        head = f.read(64).lstrip()
    return "document" if head.startswith(b"{") else "trace"
