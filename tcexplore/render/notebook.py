"""What a notebook keeps of an exploration: the MIME bundle, small enough to save.

A GPT-sized capture is tens of megabytes of JSON, most of it graphs the explorer draws
from their nodes. The bundle's document therefore leaves out what no view reads: the AOT
joint graph when forward and backward are there, the FX code text of graphs that have
their nodes (marked ``truncated``, ``chars`` kept) and each node's copy of its code line,
the disassembly texts of bytecode read into instructions (marked the same way),
Inductor's raw provenance, non-scalar compile metrics. ``Exploration.save()`` still
writes everything. And a document still over :data:`PACK_OVER` bytes carries its
``compiles`` gzip-compressed in ``packed`` (the JupyterLab extension unpacks it); its
``text/html`` fallback is then the summary report, which points to the extension. So is
one whose document and full HTML report together would pass :data:`BUNDLE_BUDGET` (a
training step's report repeats every graph and kernel: it outweighs the document).
"""

from __future__ import annotations

import base64
import gzip
import json
from typing import Any

from ..document import MIME_TYPE
from ..files.inflate import unpack_document
from .html import render_html

PACK_OVER = 1_000_000  # bytes of document JSON; smaller documents stay readable inline
PACKED_ENCODING = "gzip+base64"
BUNDLE_BUDGET = 1_000_000  # bytes one output may take in a saved notebook, document and HTML
_LONG_METRIC = 200  # characters: longer string metrics are stack traces and dumps


def _scalar_metrics(metrics: Any) -> Any:
    if not isinstance(metrics, dict):
        return metrics
    return {
        k: v
        for k, v in metrics.items()
        if v is None
        or isinstance(v, (int, float, bool))
        or (isinstance(v, str) and len(v) < _LONG_METRIC)
    }


def _display_graph(graph: Any) -> Any:
    if not isinstance(graph, dict) or not graph.get("nodes"):
        return graph
    return {
        **graph,
        "text": "",
        "truncated": True,
        "chars": graph.get("chars", len(graph["text"])),
        "nodes": [{k: v for k, v in node.items() if k != "code"} for node in graph["nodes"]],
    }


def _display_bytecode(section: Any) -> Any:
    if not isinstance(section, dict):
        return section
    return {
        **section,
        **{
            part: {**section[part], "text": "", "truncated": True}
            for part in ("original", "modified")
            if section[part]["instructions"]
        },
    }


def _display_compile(record: dict[str, Any]) -> dict[str, Any]:
    record = dict(record)
    aot = dict(record.get("aot_graphs") or {})
    if "joint" in aot and ("forward" in aot or "backward" in aot):
        del aot["joint"]
    record["aot_graphs"] = {kind: _display_graph(g) for kind, g in aot.items()}
    record["dynamo_graph"] = _display_graph(record.get("dynamo_graph"))
    if record.get("restarted_attempts"):
        record["restarted_attempts"] = [
            {**a, "graph": _display_graph(a.get("graph"))} for a in record["restarted_attempts"]
        ]
    record["post_grad_graphs"] = [_display_graph(g) for g in record.get("post_grad_graphs") or []]
    record["bytecode"] = _display_bytecode(record.get("bytecode"))
    record["output_codes"] = [
        {k: v for k, v in out.items() if k != "provenance"}
        for out in record.get("output_codes") or []
    ]
    for key in ("metrics", "backward_metrics"):
        if key in record:
            record[key] = _scalar_metrics(record[key])
    return record


def display_document(data: dict[str, Any], pack_over: int | None = None) -> dict[str, Any]:
    """The document as a notebook output shows it: what the views read, compiles packed if
    their JSON passes ``pack_over`` bytes (default :data:`PACK_OVER`)."""
    shown = dict(data)
    shown["compiles"] = [_display_compile(c) for c in data.get("compiles") or []]
    compiles_json = json.dumps(shown["compiles"], separators=(",", ":"), ensure_ascii=False)
    if len(compiles_json) > (PACK_OVER if pack_over is None else pack_over):
        packed = gzip.compress(
            json.dumps(
                {"compiles": shown["compiles"]}, separators=(",", ":"), ensure_ascii=False
            ).encode(),
            compresslevel=6,
            mtime=0,
        )
        shown["compiles"] = []
        shown["packed"] = {"encoding": PACKED_ENCODING, "data": base64.b64encode(packed).decode()}
    return shown


def unpack(shown: dict[str, Any]) -> dict[str, Any]:
    """The inverse of the packing in :func:`display_document` (for tests and tools), bounded."""
    return unpack_document(shown, json.loads)


def mime_bundle(data: dict[str, Any], text: str) -> dict[str, Any]:
    shown = display_document(data)
    html = render_html(data, full_page=False, summary_only="packed" in shown)
    if "packed" not in shown and _bytes(shown) + len(html.encode()) > BUNDLE_BUDGET:
        shown = display_document(data, pack_over=0)
        html = render_html(data, full_page=False, summary_only=True)
    return {MIME_TYPE: shown, "text/html": html, "text/plain": text}


def _bytes(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())
