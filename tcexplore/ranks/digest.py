"""One rank, read where it is (in this process or a worker of an executor), brought down to
what the multi-rank view needs: its entry (the digest the side-by-side view shows) and a
slim copy of its document holding only what the divergence findings compare (no graph
code, no output code; of the lower graphs only their collectives).

A rank read from a log has its whole document written beside the multi-rank document
(``<base>.input<I>.json``, renamed ``<base>.rank<N>.json`` once its rank is settled:
:mod:`.settle`), so no process has to hold every rank's document at once. A source that
cannot be read is a digest saying why (``{"skipped": reason}``), never an exception: the
job is read without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..decided import Document
from ..document import DocumentError, dump_json
from ..traces import data_from_log
from ..traces.log_file import read_trace_log
from .collectives import collectives, op_name
from .files import per_input_path
from .inputs import RankSource

MAX_REASON = 500  # characters of a graph-break reason kept in a rank's entry


def digest_rank(source: RankSource, documents_base: str | None) -> dict[str, Any]:
    """``{"said", "entry", "slim", "document_path", "bytes"}`` of one source (``said``: the
    rank its document says, or None), or ``{"skipped": reason}``."""
    if source.kind == "trace" and documents_base is None:
        raise DocumentError("rank documents read from logs need a place to be written")
    try:
        document = _read(source)
    except Exception as exc:  # noqa: BLE001 - one unreadable input costs only itself
        return {"skipped": _why(exc, source.path)}
    said = (document.data.get("distributed") or {}).get("rank")
    path = source.path
    if source.kind == "trace":
        target = per_input_path(documents_base, source.order)
        target.parent.mkdir(parents=True, exist_ok=True)
        path = str(document.save(target))
    size = Path(path).stat().st_size if path else len(dump_json(document.data))
    return {
        "said": said,
        "entry": entry(said, document.data, source, path),
        "slim": slim(document.data),
        "document_path": path,
        "bytes": size,
    }


def _read(source: RankSource) -> Document:
    if source.document is not None:
        return source.document
    if source.kind == "trace":
        return Document.built(data_from_log(read_trace_log(source.path)))
    return Document.load(source.path)


def _why(exc: Exception, path: str | None) -> str:
    """The reason a source was not read, without its own path in front."""
    text = str(exc)
    if path and text.startswith(f"{path}: "):
        text = text[len(path) + 2 :]
    elif path and text.startswith(f"{path} is "):
        text = text[len(path) + 4 :]
    if isinstance(exc, (DocumentError, ValueError, OSError)):
        return text
    return f"could not be read ({type(exc).__name__}: {text})"


def entry(
    rank: int | None, data: dict[str, Any], source: RankSource, document_path: str | None
) -> dict[str, Any]:
    capture = data.get("capture") or {}
    compiles, found = [], []
    for record in data.get("compiles") or []:
        frame = record.get("frame")
        compiles.append(
            {
                "id": record["id"],
                "frame": {k: frame.get(k) for k in ("function", "file", "line")} if frame else None,
                "status": record["status"],
                "graph_nodes": len(record["dynamo_graph"]["nodes"])
                if record.get("dynamo_graph")
                else None,
                "recompile_reasons": [
                    r["guard"] for group in record.get("recompile_reasons") or [] for r in group
                ],
            }
        )
        level, ops = collectives(record)
        if ops:
            found.append({"compile_id": record["id"], "graph": level, "ops": ops})
    return {
        "rank": rank,
        "rank_from": None,  # which rule gave the rank, and how a conflict was settled: settle.py
        "rank_note": None,
        "source": {"kind": source.kind, "path": source.path},
        "distributed": data.get("distributed"),
        "environment": data.get("environment") or {},
        "capture": {
            k: capture.get(k) for k in ("source", "partial", "unavailable") if k in capture
        },
        "summary": data["summary"],
        "compiles": compiles,
        "graph_breaks": [
            {
                "compile_id": b.get("compile_id"),
                "file": b.get("file"),
                "line": b.get("line"),
                "reason": str(b.get("reason") or "")[:MAX_REASON],
            }
            for b in data.get("graph_breaks") or []
        ],
        "collectives": found,
        "error": data.get("error"),
        "document": None,
        "document_left_out": None,
        "document_path": document_path,
    }


def _node(node: dict[str, Any]) -> dict[str, Any]:
    return {k: node.get(k) for k in ("name", "op", "target", "meta")}


def _collective_nodes(graph: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "nodes": [
            _node(n)
            for n in (graph or {}).get("nodes") or []
            if n.get("op") == "call_function" and op_name(n.get("target"))
        ]
    }


def slim(data: dict[str, Any]) -> dict[str, Any]:
    """The document as the divergence findings read it (:mod:`.divergence`)."""
    compiles = []
    for record in data.get("compiles") or []:
        dynamo = record.get("dynamo_graph")
        compiles.append(
            {
                **{
                    k: record.get(k)
                    for k in (
                        "id",
                        "frame",
                        "status",
                        "error",
                        "recompile_reasons",
                        "cache",
                        "collective_schedules",
                    )
                },
                "dynamo_graph": {"nodes": [_node(n) for n in dynamo["nodes"]]} if dynamo else None,
                "aot_graphs": {
                    k: _collective_nodes(g) for k, g in (record.get("aot_graphs") or {}).items()
                },
                "post_grad_graphs": [
                    _collective_nodes(g) for g in record.get("post_grad_graphs") or []
                ],
            }
        )
    return {
        "error": data.get("error"),
        "environment": data.get("environment"),
        "distributed": data.get("distributed"),
        "compiles": compiles,
        "graph_breaks": [
            {k: b.get(k) for k in ("compile_id", "file", "line", "reason")}
            for b in data.get("graph_breaks") or []
        ],
    }
