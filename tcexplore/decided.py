"""The document users hold (``tcexplore.Document``): a document's data (document.py) with
every decision the views draw, made by findings/ when it is built (``Document.built``) or
read back (``upgraded``: those it lacks), its HTML report and notebook display
(render/), and its kernels (workbench/).

This module is above findings/, render/ and workbench/ and calls them directly: the data
contract below knows none of them. capture/ and traces/ make a document's data; whoever
holds it as a document (the public ``tcexplore.capture``, ``load_trace``, ``explore()``,
the CLI) builds it here. Imports no torch, and the renderers and the workbench only when
first drawn or asked for (``import tcexplore`` stays light).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .capture.upgrade import parse_older
from .document import check_document, dump_json, read_document, write_json
from .files.output import write_text
from .findings import decide, upgrade
from .findings.graph_break_audit import graph_break_audit
from .traces import read_trace

__all__ = ["Document", "grid_bundle", "grid_html", "load_trace", "upgraded"]


def upgraded(data: dict[str, Any]) -> dict[str, Any]:
    """A one-run document read back, with what it was saved without: torch's text parsed
    (capture/upgrade.py) and the decisions it lacks (``findings.upgrade``); in place."""
    return upgrade(parse_older(data))


class Document:
    """A tcexplore document (validated unless built by this package); ``.data`` is the
    plain JSON-ready dict."""

    def __init__(self, data: dict[str, Any], *, check: bool = True):
        if check:
            check_document(data)
            parse_older(data)  # saved before capture stored torch's text parsed
        self.data = data

    @classmethod
    def built(cls, data: dict[str, Any]) -> Document:
        """A document this package just made (capture, a log, measurements added), with
        its decisions (``findings.decide``): not validated again."""
        return cls(decide(data), check=False)

    @property
    def summary(self) -> dict[str, int]:
        return self.data["summary"]

    @property
    def compiles(self) -> list[dict[str, Any]]:
        return self.data["compiles"]

    def graph_break_audit(self) -> list[dict[str, Any]]:
        """The graph breaks grouped by the line that broke, most break events first: each
        site's count, torch's reason (message, explanation, hints, link), the user stacks
        that reached it and the resume functions it made (``findings/graph_break_audit.py``):
        the document's ``graph_break_sites``, computed for one saved before they were stored."""
        sites = self.data.get("graph_break_sites")
        return sites if isinstance(sites, list) else graph_break_audit(self.data)

    def kernel(self, name: str, *, compile: str | None = None, output: str | None = None) -> Any:
        """The kernel (or extern call) ``name`` names, as a ``tcexplore.workbench.Kernel``:
        its source, fused nodes, ATen ops, user lines and ``.reproducer()``. ``name`` is
        ``COMPILE:OUTPUT:NAME`` (``0/0:backward:cpp_fused_mul_0``) or any unambiguous part
        of it; an ambiguous one is an error listing the candidates."""
        from .workbench import find_kernel  # noqa: PLC0415 - when first asked for

        return find_kernel(self.data, name, compile=compile, output=output)

    def kernels(self) -> list[Any]:
        """Every kernel and extern call, as ``tcexplore.workbench.Kernel`` objects."""
        from .workbench import all_kernels  # noqa: PLC0415 - when first asked for

        return all_kernels(self.data)

    def with_sections(self, **sections: Any) -> Document:
        """A copy with measurement sections (``timing``, ``accuracy``, ...) added; None ones skipped."""
        data = dict(self.data)
        data.update({k: v for k, v in sections.items() if v is not None})
        return Document.built(data)  # the measurements add their own labels and findings

    def to_dict(self) -> dict[str, Any]:
        return self.data

    def to_json(self, indent: int | None = None) -> str:
        return dump_json(self.data, indent=bool(indent)).decode("utf-8")

    def save(self, path: str | Path, *, compiles: list[str] | None = None) -> Path:
        """``.html`` writes the self-contained report (``compiles``: ids shown in full, the
        others listed); anything else the JSON document. Written whole or not at all;
        :class:`OutputError` (an OSError) names the file."""
        path = Path(path)
        if path.suffix.lower() in (".html", ".htm"):
            from .render.html import render_html  # noqa: PLC0415 - when first drawn

            return write_text(path, render_html(self, compiles=compiles))
        return write_json(path, self.data)

    @classmethod
    def load(cls, path: str | Path) -> Document:
        """A saved one-run document; a multi-rank one is refused (``tcexplore.load`` reads both)."""
        return cls(parse_older(read_document(path)), check=False)

    def mime_bundle(self, text: str) -> dict[str, Any]:
        """The notebook output showing this document, ``text`` its plain-text form."""
        from .render.notebook import mime_bundle  # noqa: PLC0415 - when first drawn

        return mime_bundle(self.data, text)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """A notebook shows a document (``tcexplore.load(...)`` as a cell's value) as its report."""
        return self.mime_bundle(repr(self))

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={v}" for k, v in self.summary.items())
        return f"<tcexplore.Document {counts}>"


def load_trace(path: str | Path, *, rank: int | None = None) -> Document:
    """The document of one TORCH_TRACE log.

    ``path`` is a log file, or the directory ``TORCH_TRACE`` named: with several logs in
    it (one per rank), ``rank`` picks one; ``tcexplore.ranks(path)`` reads them all.
    """
    return Document.built(read_trace(path, rank=rank))


def grid_html(data: dict[str, Any]) -> str:
    """A compare() grid's page (``"kind": "comparison"``, decided when measure/ built it)
    with each row's report."""
    from .render.comparison import render_comparison_html  # noqa: PLC0415 - when first drawn

    return render_comparison_html(data)


def grid_bundle(data: dict[str, Any], text: str) -> dict[str, Any]:
    """A compare() grid's notebook output, ``text`` its plain-text form."""
    from .render.comparison import comparison_mime_bundle  # noqa: PLC0415 - when first drawn

    return comparison_mime_bundle(data, text)
