"""The ranks of one distributed job side by side, and where they diverge.

``tcexplore.ranks(...)`` reads per-rank documents or TORCH_TRACE logs (see
:mod:`.inputs`), each where it is digested (:mod:`.digest`: in parallel processes, or on
the executor given), into one multi-rank document (``"kind": "ranks"`` in the tcexplore/1
schema): an entry per rank and the ``divergence`` findings (:mod:`.divergence`). This
process holds the digests only; rank documents stay in their files (read from logs, they
are written beside the multi-rank document) and are read one at a time when asked for.
"""

from __future__ import annotations

import hashlib
import tempfile
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import orjson

from ..decided import Document
from ..document import dump_json, validate
from ..files.output import write_atomically, write_text
from .build import EMBED_LIMIT, build_ranks_document
from .digest import digest_rank
from .inputs import find_sources
from .pool import run_all
from .settle import ranked_digests, settle

__all__ = ["Ranks", "ranks"]


def ranks(
    *sources: Any,
    embed_limit: int = EMBED_LIMIT,
    jobs: int | None = None,
    executor: Executor | None = None,
    documents: str | Path | None = None,
) -> Ranks:
    """Compare the ranks of a job: documents, saved documents, logs, a TORCH_TRACE directory,
    or the ``--json`` path of ``tcexplore run`` (``out.json`` -> ``out.rank*.json``).

    Each input's rank is what its metadata says, else its file name's ``rank_<N>``, else
    its place among the inputs; files that cannot be read are skipped, and of two files
    claiming one rank one is read by a stated rule: the document's ``inputs`` section and
    each entry's ``rank_from`` say what was done (traces/folder.py, :mod:`.settle`).

    Ranks are read in parallel: on ``executor`` (any ``concurrent.futures.Executor``, e.g. a
    Dask ``Client.get_executor()``), else in ``jobs`` processes (default: this machine's
    cores). The document of a rank read from a log is written to ``documents`` (a path
    ``ranks.json`` gives ``ranks.rank<N>.json``; default a temporary directory kept while
    the returned object lives): give a place the executor's workers share.
    """
    inputs = find_sources(sources)
    scratch = None
    if documents is None and any(s.kind == "trace" for s in inputs.sources):
        scratch = tempfile.TemporaryDirectory(prefix="tcexplore-ranks-")
        documents = Path(scratch.name) / "ranks.json"
    base = str(documents) if documents else None
    by_order = {}
    for source in inputs.sources:
        if source.document is not None:
            by_order[source.order] = digest_rank(source, None)
    on_disk = [s for s in inputs.sources if s.document is None]
    for source, digest in zip(
        on_disk, run_all(digest_rank, on_disk, base, jobs=jobs, executor=executor)
    ):
        by_order[source.order] = digest
    kept, set_aside, section = settle(inputs, [by_order[s.order] for s in inputs.sources])
    digests = ranked_digests(kept, set_aside, base)
    _share_graphs(digests)
    view = Ranks(
        build_ranks_document(digests, embed_limit, section),
        check=False,
        documents={
            by_order[s.order]["rank"]: s.document
            for s in inputs.sources
            if s.document is not None and "rank" in by_order[s.order]
        },
    )
    view._scratch = scratch
    return view


def _share_graphs(digests: list[dict[str, Any]]) -> None:
    """Ranks that agree hold equal Dynamo graphs: keep one copy of each."""
    seen: dict[bytes, Any] = {}
    for digest in digests:
        for record in digest["slim"]["compiles"]:
            graph = record["dynamo_graph"]
            if graph:
                key = hashlib.md5(orjson.dumps(graph["nodes"]), usedforsecurity=False).digest()
                record["dynamo_graph"] = seen.setdefault(key, graph)


class Ranks:
    """A validated multi-rank document; ``.data`` is the JSON-ready dict (rank documents not
    embedded: :meth:`document` reads one, :meth:`save` embeds them within the limit)."""

    def __init__(
        self,
        data: dict[str, Any],
        *,
        documents: dict[int, Document] | None = None,
        check: bool = True,
    ):
        if check:
            validate(data)
        self.data = data
        self._documents = dict(documents or {})
        self._scratch: Any = None  # the temporary directory of rank documents, if any

    @property
    def divergence(self) -> list[dict[str, Any]]:
        return self.data["divergence"]

    @property
    def ranks(self) -> list[int]:
        return [entry["rank"] for entry in self.data["ranks"]]

    def _entry(self, rank: int) -> dict[str, Any]:
        entry = next((e for e in self.data["ranks"] if e["rank"] == rank), None)
        if entry is None:
            raise KeyError(f"no rank {rank}; ranks are {self.ranks}")
        return entry

    def document(self, rank: int) -> Document | None:
        """Rank ``rank``'s whole document: the one given, the one embedded, or the one in its
        file (read now, not kept); None when none is at hand."""
        if rank in self._documents:
            return self._documents[rank]
        entry = self._entry(rank)
        if entry["document"]:
            return Document(entry["document"], check=False)
        path = entry.get("document_path")
        if path and Path(path).is_file():
            return Document.load(path)
        return None

    def to_dict(self) -> dict[str, Any]:
        return self.data

    def save(self, path: str | Path) -> Path:
        """``.html`` writes the self-contained report; anything else the JSON document, with
        the rank documents embedded (each read from its file in turn) within the limit."""
        path = Path(path)
        if path.suffix.lower() in (".html", ".htm"):
            from ..render.ranks_html import render_ranks_html  # noqa: PLC0415

            return write_text(path, render_ranks_html(self.data, self.document))
        head = dump_json({k: v for k, v in self.data.items() if k != "ranks"})

        def write(out):
            out.write(head[:-1] + b',"ranks":[')
            for i, entry in enumerate(self.data["ranks"]):
                out.write(b"," if i else b"")
                out.write(self._entry_json(entry))
            out.write(b"]}")

        return write_atomically(path, write)

    def _entry_json(self, entry: dict[str, Any]) -> bytes:
        if entry["document"] is not None or entry["document_left_out"] is not None:
            return dump_json(entry)
        document = self._documents.get(entry["rank"])
        embedded = (
            dump_json(document.data)
            if document
            else Path(entry["document_path"]).read_bytes().strip()
        )
        text = dump_json({**entry, "document": None})
        at = text.rindex(b'"document":null')
        return text[:at] + b'"document":' + embedded + text[at + len(b'"document":null') :]

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        from ..render.ranks_bundle import ranks_mime_bundle  # noqa: PLC0415

        return ranks_mime_bundle(self.data, self.document, repr(self))

    def __repr__(self) -> str:
        kinds = (
            ", ".join(f"{f['kind']} ({', '.join(map(str, f['ranks']))})" for f in self.divergence)
            or "none"
        )
        return f"<tcexplore.Ranks ranks={self.ranks} divergence: {kinds}>"
