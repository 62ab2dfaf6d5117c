"""The data contract: one JSON document per capture, ``"schema": "tcexplore/1"``.

The JSON Schema in ``schema/tcexplore-1.schema.json`` is the type definition. A document
read from outside (``load``, a dict handed to ``Document``) is validated against it; one
this package builds from a capture is not validated again at build time (pure-Python
JSON-Schema validation would cost more than assembling it: a noticeable share of a
compile); the test suite validates every kind of document the package builds. No pickles.
"""

from __future__ import annotations

import datetime
import json
import traceback
import uuid
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from . import __version__, _torch_compat
from .graph_break_audit import graph_break_audit
from .output_files import write_text

SCHEMA = "tcexplore/1"
SUMMARY_KEYS = ("graphs", "graph_breaks", "recompiles", "output_codes", "kernels", "guards",
                "unmapped_nodes", "failures")


class DocumentError(ValueError):
    """A file or dict that is not a valid tcexplore document."""


@lru_cache(maxsize=1)
def json_schema() -> dict[str, Any]:
    text = resources.files("tcexplore.schema").joinpath("tcexplore-1.schema.json").read_text()
    return json.loads(text)


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json_schema())


def validate(data: Any) -> None:
    if not isinstance(data, dict):
        raise DocumentError("a tcexplore document is a JSON object")
    if data.get("schema") != SCHEMA:
        raise DocumentError(
            f"unsupported document schema {data.get('schema')!r}; this tcexplore "
            f"{__version__} reads {SCHEMA!r}"
        )
    error = jsonschema.exceptions.best_match(_validator().iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        raise DocumentError(f"invalid tcexplore document at {where}: {error.message}")


def error_record(exc: BaseException) -> dict[str, Any]:
    """An exception as the document's ``error`` shape (type, message, traceback)."""
    return {"type": type(exc).__name__, "message": str(exc),
            "traceback": "".join(traceback.format_exception(exc))}


def compute_summary(compiles: list[dict[str, Any]], graph_breaks: list[Any]) -> dict[str, int]:
    outputs = [o for c in compiles for o in c["output_codes"]]
    return {
        "graphs": sum(1 for c in compiles if c["dynamo_graph"] is not None),
        "graph_breaks": len(graph_breaks),
        "recompiles": sum(len(c["recompile_reasons"]) for c in compiles),
        "output_codes": len(outputs),
        "kernels": sum(1 for o in outputs for k in o["kernels"] if k["kind"] != "extern"),
        "guards": sum(len(c["guards"]) for c in compiles),
        "unmapped_nodes": sum(len(o["unmapped_nodes"]) for o in outputs),
        "failures": sum(1 for c in compiles if c["status"] == "failed"),
    }


def build_document(*, compiles: list[dict[str, Any]], graph_breaks: list[dict[str, Any]],
                   unknown_events: dict[str, int], runtime: dict[str, Any],
                   capture: dict[str, Any], error: dict[str, Any] | None,
                   environment: dict[str, Any] | None = None,
                   distributed: dict[str, Any] | None = None) -> Document:
    """``environment`` defaults to this machine's (a live capture); ``distributed`` is the
    rank, world size and backend of a process in a distributed job, else None."""
    data = {
        "schema": SCHEMA,
        "id": uuid.uuid4().hex,  # tells documents apart, e.g. to link a diff to its explorers
        "tool": {"name": "tcexplore", "version": __version__},
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "environment": environment if environment is not None else _torch_compat.environment(),
        "distributed": distributed,
        "capture": capture,
        "summary": compute_summary(compiles, graph_breaks),
        "compiles": compiles,
        "graph_breaks": graph_breaks,
        "unknown_events": unknown_events,
        "runtime": runtime,
        "error": error,
    }
    return Document(data, check=False)  # built here, not read from outside: see above


class Document:
    """A tcexplore document (validated unless built by this package); ``.data`` is the
    plain JSON-ready dict."""

    def __init__(self, data: dict[str, Any], *, check: bool = True):
        if check:
            validate(data)
        self.data = data

    @property
    def summary(self) -> dict[str, int]:
        return self.data["summary"]

    @property
    def compiles(self) -> list[dict[str, Any]]:
        return self.data["compiles"]

    def graph_break_audit(self) -> list[dict[str, Any]]:
        """The graph breaks grouped by the line that broke, most break events first: each
        site's count, torch's reason (message, explanation, hints, link), the user stacks
        that reached it and the resume functions it made (module ``graph_break_audit``)."""
        return graph_break_audit(self.data)

    def kernel(self, name: str, *, compile: str | None = None, output: str | None = None) -> Any:
        """The kernel (or extern call) ``name`` names, as a ``tcexplore.workbench.Kernel``:
        its source, fused nodes, ATen ops, user lines and ``.reproducer()``. ``name`` is
        ``COMPILE:OUTPUT:NAME`` (``0/0:backward:cpp_fused_mul_0``) or any unambiguous part
        of it; an ambiguous one is an error listing the candidates."""
        from .workbench import find_kernel  # noqa: PLC0415 - the workbench is optional here

        return find_kernel(self.data, name, compile=compile, output=output)

    def kernels(self) -> list[Any]:
        """Every kernel and extern call, as ``tcexplore.workbench.Kernel`` objects."""
        from .workbench import all_kernels  # noqa: PLC0415

        return all_kernels(self.data)

    def with_sections(self, **sections: Any) -> Document:
        """A copy with measurement sections (``timing``, ``accuracy``, ...) added; None ones skipped."""
        data = dict(self.data)
        data.update({k: v for k, v in sections.items() if v is not None})
        return Document(data, check=False)  # sections measured here, not read from outside

    def to_dict(self) -> dict[str, Any]:
        return self.data

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.data, indent=indent, ensure_ascii=False)

    def save(self, path: str | Path) -> Path:
        """``.html`` writes the self-contained report; anything else the JSON document.
        Written whole or not at all; :class:`OutputError` (an OSError) names the file."""
        path = Path(path)
        if path.suffix.lower() in (".html", ".htm"):
            from .render.html import render_html  # noqa: PLC0415 - optional rendering layer

            return write_text(path, render_html(self))
        return write_text(path, self.to_json())

    @classmethod
    def load(cls, path: str | Path) -> Document:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except ValueError as exc:
            raise DocumentError(f"{path} is not JSON: {exc}") from exc
        return cls(data)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """A notebook shows a document (``tcexplore.load(...)`` as a cell's value) as its report."""
        from .render.notebook import mime_bundle  # noqa: PLC0415 - rendering is optional here

        return mime_bundle(self.data, repr(self))

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={v}" for k, v in self.summary.items())
        return f"<tcexplore.Document {counts}>"


def load(path: str | Path) -> Any:
    """Read a saved document back, validating it against the schema; a multi-rank document
    (``tcexplore ranks``) comes back as :class:`tcexplore.Ranks`."""
    document = Document.load(path)
    if document.data.get("kind") == "ranks":
        from .ranks import Ranks  # noqa: PLC0415 - ranks builds on this module

        return Ranks(document.data, check=False)
    return document
