"""The ranks of one distributed job side by side, and where they diverge.

``tcexplore.ranks(...)`` reads per-rank documents or TORCH_TRACE logs (see
:mod:`.inputs`) into one multi-rank document (``"kind": "ranks"`` in the tcexplore/1
schema): a digest per rank and the ``divergence`` findings (:mod:`.divergence`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..document import Document, validate
from ..output_files import write_text
from .build import EMBED_LIMIT, build_ranks_document
from .inputs import collect

__all__ = ["Ranks", "ranks"]


def ranks(*sources: Any, embed_limit: int = EMBED_LIMIT) -> Ranks:
    """Compare the ranks of a job: documents, saved documents, logs, a TORCH_TRACE directory,
    or the ``--json`` path of ``tcexplore run`` (``out.json`` -> ``out.rank*.json``)."""
    inputs = collect(sources)
    return Ranks(build_ranks_document(inputs, embed_limit),
                 documents={i.rank: i.document for i in inputs})


class Ranks:
    """A validated multi-rank document; ``.data`` is the JSON-ready dict."""

    def __init__(self, data: dict[str, Any], *, documents: dict[int, Document] | None = None,
                 check: bool = True):
        if check:
            validate(data)
        self.data = data
        self._documents = dict(documents or {})

    @property
    def divergence(self) -> list[dict[str, Any]]:
        return self.data["divergence"]

    @property
    def ranks(self) -> list[int]:
        return [entry["rank"] for entry in self.data["ranks"]]

    def document(self, rank: int) -> Document | None:
        """Rank ``rank``'s whole document: the one read, or the one embedded; None when
        neither is at hand (left out of a saved file for its size)."""
        if rank in self._documents:
            return self._documents[rank]
        entry = next((e for e in self.data["ranks"] if e["rank"] == rank), None)
        if entry is None:
            raise KeyError(f"no rank {rank}; ranks are {self.ranks}")
        return Document(entry["document"], check=False) if entry["document"] else None

    def to_dict(self) -> dict[str, Any]:
        return self.data

    def save(self, path: str | Path) -> Path:
        """``.html`` writes the self-contained report; anything else the JSON document."""
        path = Path(path)
        if path.suffix.lower() in (".html", ".htm"):
            from ..render.ranks_html import render_ranks_html  # noqa: PLC0415

            return write_text(path, render_ranks_html(self.data, self.document))
        return write_text(path, json.dumps(self.data, ensure_ascii=False))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        from ..render.ranks_bundle import ranks_mime_bundle  # noqa: PLC0415

        return ranks_mime_bundle(self.data, self.document, repr(self))

    def __repr__(self) -> str:
        kinds = ", ".join(f"{f['kind']} ({', '.join(map(str, f['ranks']))})"
                          for f in self.divergence) or "none"
        return f"<tcexplore.Ranks ranks={self.ranks} divergence: {kinds}>"
