"""A compile's graphs: the Dynamo graph (a picture when Graphviz can draw it, its nodes
with shapes and user lines, its code), the AOT graphs and the post-grad graphs."""

from __future__ import annotations

import json
from typing import Any

from ..common.formatting import plural
from .graph_svg import MAX_SVG_NODES, dynamo_graph_svg
from .markup import (
    Data,
    _captured_note,
    _code,
    _details,
    _e,
    _location_with_code,
    _note,
    _table,
)


def _meta(meta: Any) -> str:
    if not isinstance(meta, dict):
        return ""
    kind = meta.get("kind")
    if kind == "tensor":
        shape = ", ".join(str(s) for s in meta.get("shape") or [])
        text = f"{meta.get('dtype') or '?'}[{shape}]"
        if meta.get("device"):
            text += f" {meta['device']}"
        return f"<code>{_e(text)}</code>"
    if kind == "symint":
        return f"<code>Sym({_e(meta.get('expr'))})</code>"
    return f"<code>{_e(meta.get('text', json.dumps(meta, ensure_ascii=False)))}</code>"


def _graph_table(graph: Data) -> str:
    rows = [
        [
            f"<code>{_e(n.get('name'))}</code>",
            _e(n.get("op")),
            f"<code>{_e(n.get('target'))}</code>",
            _meta(n.get("meta")),
            _location_with_code(n.get("source")),
        ]
        for n in graph.get("nodes") or []
        if isinstance(n, dict)
    ]
    return _table(["name", "op", "target", "shape / dtype", "user line"], rows, "tcx-graph-table")


def dynamo_graph(graph: Any) -> str:
    if not isinstance(graph, dict):
        return '<p class="tcx-muted">No Dynamo graph.</p>'
    nodes = graph.get("nodes") or []
    svg = dynamo_graph_svg(graph)
    # The picture when Graphviz can draw it; the table keeps shapes and user lines.
    table = (
        _graph_table(graph)
        if svg is None
        else (f'<div class="tcx-graph-svg">{svg}</div>\n' + _details("Nodes", _graph_table(graph)))
    )
    if len(nodes) > MAX_SVG_NODES:
        table = _note(f"Not drawn: {len(nodes)} nodes (pictures stop at {MAX_SVG_NODES}).") + table
    body = "\n".join(
        [
            _captured_note(graph),
            table,
            _details("Graph code", _code(graph.get("text") or "")),
        ]
    )
    return _details(
        f"Dynamo graph ({plural(len(nodes), 'node')})", body, cls="tcx-sub tcx-dynamo-graph"
    )


def _raw_graph(title: str, graph: Any) -> str:
    if not isinstance(graph, dict):
        return ""
    body = _captured_note(graph) + _code(graph.get("text") or "")
    return _details(title, body)


def aot_graphs(graphs: Any) -> str:
    if not isinstance(graphs, dict) or not graphs:
        return ""
    body = "\n".join(_raw_graph(f"{_e(name)} graph", g) for name, g in graphs.items())
    return _details(f"AOT graphs ({len(graphs)})", body, cls="tcx-sub tcx-aot-graphs")


def post_grad_graphs(graphs: list[Any]) -> str:
    if not graphs:
        return ""
    body = "\n".join(_raw_graph(f"Post-grad graph #{i}", g) for i, g in enumerate(graphs))
    return _details(f"Post-grad graphs ({len(graphs)})", body, cls="tcx-sub tcx-post-grad-graphs")
