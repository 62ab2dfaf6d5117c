"""Diff two compilations: ``tcexplore.diff(a, b)`` -> :class:`DocDiff`.

Not to be confused with ``measure/output_diff.py``, the numeric diff of eager and compiled
outputs: this compares what torch.compile *did* in two runs (compiles, graph nodes,
guards, kernels, and the timing and accuracy measured with them). What counts as the same
and what is noise is written down in :mod:`.identity`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..decided import Document
from ..document import DocumentError, check_schema, read_json
from ..files.output import unwritable, write_text
from .compute import SCHEMA, SUMMARY_KEYS, compute

MIME_TYPE = "application/vnd.tcexplore.diff.v1+json"

__all__ = ["DocDiff", "MIME_TYPE", "SCHEMA", "SUMMARY_KEYS", "diff", "load_diff", "run_diff"]


def validate(data: Any) -> None:
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        found = data.get("schema") if isinstance(data, dict) else type(data).__name__
        raise DocumentError(f"not a tcexplore diff ({SCHEMA!r}): schema {found!r}")
    check_schema(data, "tcexplore-diff-1.schema.json", "tcexplore diff")


class DocDiff:
    """A validated diff; ``.data`` is the plain JSON-ready dict."""

    def __init__(self, data: dict[str, Any], *, check: bool = True):
        if check:
            validate(data)
        self.data = data

    @property
    def summary(self) -> dict[str, int]:
        return self.data["summary"]

    @property
    def empty(self) -> bool:
        """True when nothing torch.compile produced differs (measurements aside)."""
        return not any(self.summary.values())

    def to_dict(self) -> dict[str, Any]:
        return self.data

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.data, indent=indent, ensure_ascii=False)

    def to_text(self) -> str:
        from .text import render_text  # noqa: PLC0415

        return render_text(self.data)

    def to_html(self, full_page: bool = True) -> str:
        from .html import render_html  # noqa: PLC0415 - rendering is optional here

        return render_html(self.data, full_page=full_page)

    def save(self, path: str | Path) -> Path:
        """``.html`` writes the self-contained report; anything else the JSON."""
        path = Path(path)
        return write_text(
            path, self.to_html() if path.suffix.lower() in (".html", ".htm") else self.to_json()
        )

    @classmethod
    def load(cls, path: str | Path) -> DocDiff:
        return cls(read_json(path))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return {
            MIME_TYPE: self.data,
            "text/html": self.to_html(full_page=False),
            "text/plain": self.to_text(),
        }

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={v}" for k, v in self.summary.items() if v)
        return (
            f"<tcexplore.DocDiff {self.data['a']['label']} -> {self.data['b']['label']}: "
            f"{counts or 'no differences'}>"
        )


def _document(value: Any) -> tuple[dict[str, Any], str | None]:
    """The document data of a Document, Exploration, dict or path, and a label if it has one."""
    if isinstance(value, (str, Path)):
        return Document.load(value).data, str(value)
    data = getattr(getattr(value, "document", value), "data", value)
    if not isinstance(data, dict):
        raise TypeError(
            f"tcexplore.diff takes Documents, Explorations, dicts or paths, "
            f"not {type(value).__name__}"
        )
    if "packed" in data:  # a notebook output's document
        from ..render.notebook import unpack  # noqa: PLC0415

        data = unpack(data)
    if not isinstance(value, Document) and not hasattr(value, "document"):
        Document(data)  # validates a plain dict
    return data, None


def diff(a: Any, b: Any, *, labels: tuple[str, str] | None = None) -> DocDiff:
    """What changed from compilation ``a`` to ``b`` (Documents, Explorations, dicts or
    paths of saved documents). ``labels`` name the two sides (default: file stems, "A"/"B")."""
    data_a, label_a = _document(a)
    data_b, label_b = _document(b)
    if labels is not None:
        label_a, label_b = labels
    return DocDiff(compute(data_a, data_b, label_a or "A", label_b or "B"))


def load_diff(path: str | Path) -> DocDiff:
    """Read a saved diff back, validating it against its schema."""
    return DocDiff.load(path)


def run_diff(a: str, b: str, json_out: str | None, html_out: str | None) -> int:
    """``tcexplore diff A B``: the text summary on stdout; 0 same, 1 different, 2 trouble
    (an output that cannot be written included: its summary is not printed)."""
    if problem := unwritable(json_out, html_out):
        print(f"tcexplore diff: {problem}", file=sys.stderr)
        return 2
    try:
        result = diff(a, b)
        written = [result.save(path) for path in (json_out, html_out) if path]
    except (OSError, DocumentError) as exc:
        print(f"tcexplore diff: {exc}", file=sys.stderr)
        return 2
    print(result.to_text())
    for path in written:
        print(f"tcexplore: wrote {path}", file=sys.stderr)
    return 0 if result.empty else 1
