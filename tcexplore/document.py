"""The data contract: one JSON document per capture, ``"schema": "tcexplore/1"``.

The JSON Schema in ``schema/tcexplore-1.schema.json`` is the type definition. A document
read from outside (``load``, a dict handed to ``Document``) is validated against it by a
compiled validator (jsonschema-rs: validating a 40 MB document takes a fraction of the
time pure-Python jsonschema took, see benchmarks/import_speed.py); one this package builds
from a capture is not validated again; the test suite validates every kind of document the
package builds. No pickles.

This module imports nothing of tcexplore above it and calls nothing above it: it makes and
checks a document's data. The decisions a document carries (``findings.decide``), its
HTML report and notebook display (render/) and its kernels (workbench/) are added by the
layers above, through the public :class:`tcexplore.decided.Document`.
"""

from __future__ import annotations

import datetime
import json
import traceback
import uuid
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

from ._version import __version__
from .files.inflate import GZIP_MAGIC, InflationError, inflate_gzip, unpack_document
from .files.output import write_atomically
from .files.without_gc import without_gc

SCHEMA = "tcexplore/1"
MIME_TYPE = "application/vnd.tcexplore.v1+json"  # a document's type in a notebook output
SUMMARY_KEYS = (
    "graphs",
    "graph_breaks",
    "recompiles",
    "output_codes",
    "kernels",
    "guards",
    "unmapped_nodes",
    "failures",
)


class DocumentError(ValueError):
    """A file or dict that is not a valid tcexplore document; ``where`` is the path of the
    first invalid value, when the schema found one."""

    def __init__(self, message: str, where: tuple[str | int, ...] = ()):
        super().__init__(message)
        self.where = where


def parse_json(text: str | bytes, source: Any) -> Any:
    """JSON text -> data (orjson; the standard parser for what orjson refuses but Python's
    json module wrote, NaN and Infinity); not JSON, or nested too deeply to read, is a
    DocumentError naming ``source``."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        first = exc
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise DocumentError(f"{source} is not JSON: {first}") from None


def dump_json(data: Any, indent: bool = False) -> bytes:
    """UTF-8 JSON (orjson: a 40 MB document in a fraction of ``json.dumps``' time, written
    as bytes without a second copy as text; Python's json module for what orjson refuses,
    such as integers over 64 bits)."""
    try:
        return orjson.dumps(
            data, option=orjson.OPT_NON_STR_KEYS | (orjson.OPT_INDENT_2 if indent else 0)
        )
    except orjson.JSONEncodeError:
        return json.dumps(data, indent=2 if indent else None, ensure_ascii=False).encode()


def write_json(path: str | Path, data: Any) -> Path:
    """``dump_json(data)`` into a file piece by piece: a document's JSON is never held whole
    next to the document (for a GPT's graphs, 30 MB less at the peak); atomically."""
    return write_atomically(path, lambda out: _write_piece(out.write, data))


# Containers this deep (a graph's node, a kernel) are written in one piece each.
_PIECE_DEPTH = 6


def _write_piece(write: Callable[[bytes], Any], value: Any, depth: int = 0) -> None:
    """Dicts key by key and lists of containers item by item, down to :data:`_PIECE_DEPTH`;
    anything else in one piece."""
    if depth >= _PIECE_DEPTH:
        write(dump_json(value))
    elif isinstance(value, dict) and value:
        for i, (key, item) in enumerate(value.items()):
            write((b"{" if i == 0 else b",") + dump_json(str(key)) + b":")
            _write_piece(write, item, depth + 1)
        write(b"}")
    elif isinstance(value, list) and value and isinstance(value[0], (dict, list)):
        for i, item in enumerate(value):
            write(b"[" if i == 0 else b",")
            _write_piece(write, item, depth + 1)
        write(b"]")
    else:
        write(dump_json(value))


def read_json(path: str | Path) -> Any:
    """A JSON file, or a gzip-compressed one (``.json.gz``: inflated within a stated limit);
    a notebook output's document comes back with its packed compiles restored."""
    path = Path(path)
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        if text.startswith(GZIP_MAGIC):
            text = inflate_gzip(text, str(path))
        with without_gc():
            data = parse_json(text, path)
            if isinstance(data, dict) and "packed" in data:
                data = unpack_document(data, lambda raw: parse_json(raw, path))
    except InflationError as exc:
        raise DocumentError(f"{path}: {exc}") from None
    return data


@cache
def schema_text(name: str) -> str:
    return resources.files("tcexplore.schema").joinpath(name).read_text(encoding="utf-8")


@cache
def _compiled(name: str) -> Any:
    import jsonschema_rs  # noqa: PLC0415 - compiled once, on the first validation

    return jsonschema_rs.validator_for(json.loads(schema_text(name)))


def check_schema(data: Any, schema_file: str, what: str) -> None:
    """Validate ``data`` against one of the shipped schemas; the first error found, with
    where it is, as a DocumentError."""
    try:
        error = next(_compiled(schema_file).iter_errors(data), None)
    except RecursionError:  # an object nested deeper than Python can walk
        raise DocumentError(f"invalid {what}: nested too deeply") from None
    except ValueError:  # a type the validator does not take (a str subclass): as JSON has it
        error = next(_compiled(schema_file).iter_errors(orjson.loads(dump_json(data))), None)
    if error is not None:
        where = "/".join(str(p) for p in error.instance_path) or "(top level)"
        raise DocumentError(
            f"invalid {what} at {where}: {error.message}", tuple(error.instance_path)
        )


def validate(data: Any) -> None:
    if not isinstance(data, dict):
        raise DocumentError("a tcexplore document is a JSON object")
    if data.get("schema") != SCHEMA:
        raise DocumentError(
            f"unsupported document schema {data.get('schema')!r}; this tcexplore "
            f"{__version__} reads {SCHEMA!r}"
        )
    check_schema(data, "tcexplore-1.schema.json", "tcexplore document")


def error_record(exc: BaseException) -> dict[str, Any]:
    """An exception as the document's ``error`` shape (type, message, traceback)."""
    return {
        "type": type(exc).__name__,
        "message": str(exc),
        "traceback": "".join(traceback.format_exception(exc)),
    }


def compute_summary(
    compiles: list[dict[str, Any]], graph_breaks: list[Any], unread_events: int = 0
) -> dict[str, int]:
    """The counts; ``unread_events`` the trace events that could not be read (damaged in
    the log, or their handler failed: ``capture.unread``)."""
    outputs = [o for c in compiles for o in c["output_codes"]]
    return {
        # tlparse's count: a restarted attempt's graph too (capture/attempts.py)
        "graphs": sum(1 for c in compiles if c["dynamo_graph"] is not None)
        + sum(len(c.get("restarted_attempts") or ()) for c in compiles),
        "graph_breaks": len(graph_breaks),
        "recompiles": sum(len(c["recompile_reasons"]) for c in compiles),
        "output_codes": len(outputs),
        "kernels": sum(1 for o in outputs for k in o["kernels"] if k["kind"] != "extern"),
        "guards": sum(len(c["guards"]) for c in compiles),
        "unmapped_nodes": sum(len(o["unmapped_nodes"]) for o in outputs),
        "failures": sum(1 for c in compiles if c["status"] == "failed"),
        "unread_events": unread_events,
    }


def new_document(
    *,
    compiles: list[dict[str, Any]],
    graph_breaks: list[dict[str, Any]],
    unknown_events: dict[str, int],
    runtime: dict[str, Any],
    capture: dict[str, Any],
    error: dict[str, Any] | None,
    environment: dict[str, Any] | None = None,
    distributed: dict[str, Any] | None = None,
    library_files: list[str] | None = None,
    compiled_autograd: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A document's data as capture and a log read it, before any decision (the layers
    above decide it: ``tcexplore.decided.Document.built``). ``environment`` defaults to
    this machine's (a live capture); ``distributed`` is the
    rank, world size and backend of a process in a distributed job, else None;
    ``library_files`` the files named that are library code (capture/library_files.py);
    ``compiled_autograd`` its passes (capture/compiled_autograd.py)."""
    if environment is None:
        from . import _torch_compat  # noqa: PLC0415 - a live capture: torch is loaded

        environment = _torch_compat.environment()
    data = {
        "schema": SCHEMA,
        "id": uuid.uuid4().hex,  # tells documents apart, e.g. to link a diff to its explorers
        "tool": {"name": "tcexplore", "version": __version__},
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "environment": environment,
        "distributed": distributed,
        "capture": capture,
        "summary": compute_summary(
            compiles, graph_breaks, (capture.get("unread") or {}).get("events", 0)
        ),
        "compiles": compiles,
        "graph_breaks": graph_breaks,
        "unknown_events": unknown_events,
        "runtime": runtime,
        "error": error,
    }
    if library_files is not None:
        data["library_files"] = library_files
    if compiled_autograd:
        data["compiled_autograd"] = compiled_autograd
    return data


MULTI_RANK = (
    "a multi-rank document (`tcexplore ranks`), not one run's: give one rank's "
    "document (out.rank<N>.json), or read it with tcexplore.load()"
)


def check_document(data: Any) -> None:
    """Validate one run's document: a multi-rank one is refused (``tcexplore.load`` reads it)."""
    validate(data)
    if data.get("kind") == "ranks":
        raise DocumentError(MULTI_RANK)


def read_document(path: str | Path) -> dict[str, Any]:
    """A saved one-run document's data, validated; an invalid one is an error naming ``path``."""
    data = read_json(path)
    try:
        check_document(data)
    except DocumentError as exc:
        raise DocumentError(f"{path}: {exc}") from None
    return data
