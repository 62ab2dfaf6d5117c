"""The multi-rank document: per rank a digest of its run, the findings, the rank documents.

Each rank entry carries what the side-by-side view needs (summary, compiles, graph
breaks, collectives, where the data came from and what it lacks) so the view works
without the rank documents; those are embedded whole while their total stays within
``embed_limit`` bytes of JSON, and beyond it are left out with their size and the reason.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from .._version import __version__
from ..document import SCHEMA
from .collectives import collectives
from .divergence import find_divergence
from .inputs import RankInput

EMBED_LIMIT = 50_000_000  # bytes of rank-document JSON a saved multi-rank document embeds
MAX_REASON = 500  # characters of a graph-break reason kept in a rank's digest


def build_ranks_document(inputs: list[RankInput], embed_limit: int = EMBED_LIMIT) -> dict[str, Any]:
    world_sizes = [(i.document.data.get("distributed") or {}).get("world_size") for i in inputs]
    world_size = next((w for w in world_sizes if w), None)
    docs = [(i.rank, i.document.data) for i in inputs]
    entries, budget = [], embed_limit
    for item in inputs:
        entry = digest(item)
        size = len(json.dumps(item.document.data, ensure_ascii=False, separators=(",", ":")))
        if size <= budget:
            entry["document"], budget = item.document.data, budget - size
        else:
            entry["document_left_out"] = {
                "reason": f"the embedded rank documents would exceed {embed_limit:,} bytes"
                          + (f"; open {item.source['path']}" if item.source["path"] else ""),
                "bytes": size}
        entries.append(entry)
    return {
        "schema": SCHEMA,
        "kind": "ranks",
        "tool": {"name": "tcexplore", "version": __version__},
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "world_size": world_size,
        "ranks": entries,
        "divergence": find_divergence(docs, world_size),
    }


def digest(item: RankInput) -> dict[str, Any]:
    data = item.document.data
    capture = data.get("capture") or {}
    compiles, found = [], []
    for record in data.get("compiles") or []:
        frame = record.get("frame")
        compiles.append({
            "id": record["id"],
            "frame": {k: frame.get(k) for k in ("function", "file", "line")} if frame else None,
            "status": record["status"],
            "graph_nodes": len(record["dynamo_graph"]["nodes"]) if record.get("dynamo_graph")
            else None,
            "recompile_reasons": [r["guard"] for group in record.get("recompile_reasons") or []
                                  for r in group],
        })
        level, ops = collectives(record)
        if ops:
            found.append({"compile_id": record["id"], "graph": level, "ops": ops})
    return {
        "rank": item.rank,
        "source": item.source,
        "distributed": data.get("distributed"),
        "environment": data.get("environment") or {},
        "capture": {k: capture.get(k) for k in ("source", "partial", "unavailable")
                    if k in capture},
        "summary": data["summary"],
        "compiles": compiles,
        "graph_breaks": [{"compile_id": b.get("compile_id"), "file": b.get("file"),
                          "line": b.get("line"), "reason": str(b.get("reason") or "")[:MAX_REASON]}
                         for b in data.get("graph_breaks") or []],
        "collectives": found,
        "error": data.get("error"),
        "document": None,
        "document_left_out": None,
    }
