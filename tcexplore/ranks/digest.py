"""One rank, read where it is (in this process or a worker of an executor), brought down to
what the multi-rank view needs: its entry (the digest the side-by-side view shows) and a
slim copy of its document holding only what the divergence findings compare (no graph
code, no output code; of the lower graphs only their collectives).

A rank read from a log has its whole document written beside the multi-rank document
(``<base>.rank<N>.json``), so no process has to hold every rank's document at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..decided import Document
from ..document import DocumentError, dump_json
from ..traces import data_from_log
from ..traces.log_file import read_trace_log
from .collectives import collectives, op_name
from .files import per_rank_path, rank_in_name
from .inputs import RankSource

MAX_REASON = 500  # characters of a graph-break reason kept in a rank's entry


def digest_rank(source: RankSource, documents_base: str | None) -> dict[str, Any]:
    """``{"rank", "entry", "slim", "document_path", "bytes"}`` of one source."""
    document = _read(source)
    rank = _rank(document, source)
    path = source.path
    if source.kind == "trace":
        if documents_base is None:
            raise DocumentError("rank documents read from logs need a place to be written")
        target = per_rank_path(documents_base, rank)
        target.parent.mkdir(parents=True, exist_ok=True)
        path = str(document.save(target))
    size = Path(path).stat().st_size if path else len(dump_json(document.data))
    return {
        "rank": rank,
        "entry": entry(rank, document.data, source, path),
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


def _rank(document: Document, source: RankSource) -> int:
    rank = (document.data.get("distributed") or {}).get("rank")
    if rank is None and source.kind == "document" and source.path:
        rank = rank_in_name(source.path)
    if rank is None:
        raise DocumentError(
            f"{source.path or 'a document'} does not say which rank it is (it "
            "was not captured under a launcher or with a process group)"
        )
    return rank


def entry(
    rank: int, data: dict[str, Any], source: RankSource, document_path: str | None
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
