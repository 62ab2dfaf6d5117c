"""A Dynamo graph drawn as inline SVG by Graphviz's ``dot``, when it is installed.

The ``graphviz`` package writes the DOT text (quoting every label, and ``escape`` keeps
``<...>`` from being read as an HTML-like label); ``dot -Tsvg`` lays it out and writes
label text as escaped XML. Without the ``dot`` binary or the package, or for a graph too
big to be read as a picture, there is no SVG and the report keeps its node table.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import Any

from .markup import SOURCE_LABELS

MAX_SVG_NODES = 300
DOT_TIMEOUT_S = 20
MAX_LABEL_CHARS = 60
_COLOURS = {"placeholder": "#ddf4ff", "output": "#dafbe1", "get_attr": "#fff8c5"}


def _label_lines(node: dict[str, Any]) -> list[str]:
    """``name = target``, the tensor's dtype and shape, the user line."""
    meta = node.get("meta") if isinstance(node.get("meta"), dict) else {}
    lines = [str(node.get("name") or "?")]
    if node.get("op") not in ("placeholder", "output"):
        lines[0] += f" = {node.get('target') or ''}"
    if meta.get("kind") == "tensor":
        lines.append(
            f"{meta.get('dtype') or '?'}[{', '.join(str(s) for s in meta.get('shape') or [])}]"
        )
    source = node.get("source") if isinstance(node.get("source"), dict) else {}
    if source.get("line") is not None:
        file = str(source.get("file") or "")
        label = (SOURCE_LABELS.get() or {}).get(file)
        lines.append(
            f"{label}, line {source['line']}"
            if label
            else f"{os.path.basename(file)}:{source['line']}"
        )
    lines = [" ".join(line.split()) for line in lines]
    return [
        line if len(line) <= MAX_LABEL_CHARS else line[:MAX_LABEL_CHARS] + "…" for line in lines
    ]


def _dot_label(lines: list[str]) -> Any:
    """Lines joined by DOT's ``\\n`` line break, every backslash of the text itself doubled
    (no ``\\N``-style escapes), marked as not an HTML-like label (as ``graphviz.escape``)."""
    import graphviz  # noqa: PLC0415

    return graphviz.nohtml("\\n".join(line.replace("\\", "\\\\") for line in lines))


def graph_dot(graph: dict[str, Any]) -> str:
    import graphviz  # noqa: PLC0415 - optional: see dynamo_graph_svg

    dot = graphviz.Digraph(
        graph_attr={"rankdir": "TB"},
        node_attr={
            "shape": "box",
            "style": "rounded,filled",
            "fontname": "monospace",
            "fontsize": "10",
            "fillcolor": "#f6f8fa",
        },
    )
    nodes = [n for n in graph.get("nodes") or [] if isinstance(n, dict)]
    ids = {str(n.get("name")): f"n{i}" for i, n in enumerate(nodes)}
    for node in nodes:
        dot.node(
            ids[str(node.get("name"))],
            _dot_label(_label_lines(node)),
            fillcolor=_COLOURS.get(str(node.get("op")), "#f6f8fa"),
        )
    for node in nodes:
        for arg in node.get("args") or []:
            if str(arg) in ids:
                dot.edge(ids[str(arg)], ids[str(node.get("name"))])
    return dot.source


def dynamo_graph_svg(graph: dict[str, Any]) -> str | None:
    """The ``<svg>`` element, or None when it cannot be drawn here (no ``dot``, no
    ``graphviz`` package, too many nodes, or ``dot`` failed)."""
    executable = shutil.which("dot")
    nodes = graph.get("nodes") or []
    if executable is None or not nodes or len(nodes) > MAX_SVG_NODES:
        return None
    try:
        source = graph_dot(graph)
        done = subprocess.run(
            [executable, "-Tsvg"],
            input=source.encode(),
            capture_output=True,
            timeout=DOT_TIMEOUT_S,
            check=True,
        )
    except (ImportError, OSError, subprocess.SubprocessError):
        return None
    svg = done.stdout.decode("utf-8", "replace")
    start = svg.find("<svg")
    # Keep the element only (no XML prolog or doctype inside an HTML page); dot's labels
    # are text nodes it has escaped, and no attribute here comes from the document.
    return re.sub(r"<!--.*?-->", "", svg[start:], flags=re.S) if start >= 0 else None
