"""The rank documents a multi-rank view is built from, whatever the user points at.

A source is a :class:`~tcexplore.Document` (or its dict), a saved document, a TORCH_TRACE
log, the directory ``TORCH_TRACE`` named (every log in it), or the ``--json`` path given
to ``tcexplore run`` under a launcher (``out.json`` stands for ``out.rank0.json``,
``out.rank1.json``…). Each document must say its rank (or be named ``*.rank<N>.json``);
two for one rank are refused.
Unreadable input raises :class:`~tcexplore.DocumentError` or
:class:`~tcexplore.traces.TraceError` (both ``ValueError``) naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..document import Document, DocumentError
from ..traces import document_from_log, trace_logs
from ..traces.log_file import read_trace_log
from .files import rank_files, rank_in_name


@dataclass
class RankInput:
    rank: int
    document: Document
    source: dict[str, Any]  # {"kind": "document" | "trace", "path": str | None}


def collect(sources: Iterable[Any]) -> list[RankInput]:
    found: list[RankInput] = []
    for source in sources:
        found.extend(_read(source))
    if not found:
        raise DocumentError("no rank documents or TORCH_TRACE logs were given")
    by_rank: dict[int, RankInput] = {}
    for item in found:
        if item.rank in by_rank:
            raise DocumentError(f"two inputs for rank {item.rank}: "
                                f"{by_rank[item.rank].source['path'] or 'a document'} and "
                                f"{item.source['path'] or 'a document'}")
        by_rank[item.rank] = item
    return [by_rank[r] for r in sorted(by_rank)]


def _read(source: Any) -> list[RankInput]:
    if isinstance(source, Document):
        return [_ranked(source, {"kind": "document", "path": None})]
    if isinstance(source, dict):
        return [_ranked(Document(source), {"kind": "document", "path": None})]
    path = Path(source)
    if path.is_dir():
        return [_from_log(p) for p in trace_logs(path)]
    if path.is_file():
        return [_from_file(path)]
    per_rank = rank_files(path)
    if not per_rank:
        raise DocumentError(f"no such file or directory: {path} (nor {path.stem}.rank*"
                            f"{path.suffix} beside it)")
    return [_from_file(p) for p in per_rank]


def _from_file(path: Path) -> RankInput:
    with path.open("rb") as f:
        head = f.read(64).lstrip()
    if head.startswith(b"{"):
        document = Document.load(path)
        if document.data.get("kind") == "ranks":
            raise DocumentError(f"{path} is a multi-rank document already; give the rank "
                                "documents or logs it was built from")
        return _ranked(document, {"kind": "document", "path": str(path)})
    return _from_log(path)


def _from_log(path: Path) -> RankInput:
    return _ranked(document_from_log(read_trace_log(path)), {"kind": "trace", "path": str(path)})


def _ranked(document: Document, source: dict[str, Any]) -> RankInput:
    rank = (document.data.get("distributed") or {}).get("rank")
    if rank is None and source["kind"] == "document" and source["path"]:
        rank = rank_in_name(source["path"])
    if rank is None:
        where = source["path"] or "a document"
        raise DocumentError(f"{where} does not say which rank it is (it was not captured "
                            "under a launcher or with a process group)")
    return RankInput(rank, document, source)
