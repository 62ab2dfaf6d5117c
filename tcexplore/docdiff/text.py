"""The diff as a short text: counts, then per changed compile what changed, a few lines each."""

from __future__ import annotations

from typing import Any

Data = dict[str, Any]

MAX_ITEMS = 8  # lines per graph / guard list / output code; the rest is counted

GRAPH_LABELS = {
    "dynamo": "Dynamo graph",
    "aot:forward": "AOT forward",
    "aot:backward": "AOT backward",
    "aot:inference": "AOT inference",
}


def graph_label(ident: str) -> str:
    if ident.startswith("post:"):
        return f"post-grad {ident[5:]}"
    return GRAPH_LABELS.get(ident, ident)


def _short(target: Any) -> str:
    text = str(target or "")
    for prefix in ("torch.ops.aten.", "torch.ops.prims.", "torch.ops."):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text


def node_line(entry: Data) -> str:
    a, b = entry["a"], entry["b"]
    if entry["status"] == "added":
        return f"+ {b['name']} ({_short(b['target'])})"
    if entry["status"] == "removed":
        return f"- {a['name']} ({_short(a['target'])})"
    names = a["name"] if a["name"] == b["name"] else f"{a['name']} -> {b['name']}"
    details = []
    for field in entry["changes"]:
        if field == "target":
            details.append(f"{_short(a['target'])} -> {_short(b['target'])}")
        elif field in ("shape", "dtype"):
            details.append(f"{field} {a[field]} -> {b[field]}")
        else:
            details.append(field)
    return f"~ {names}: {', '.join(details)}"


def kernel_line(entry: Data) -> str:
    a, b = entry["a"], entry["b"]
    if entry["status"] == "added":
        return f"+ {b['name']}"
    if entry["status"] == "removed":
        return f"- {a['name']}"
    names = a["name"] if a["name"] == b["name"] else f"{a['name']} -> {b['name']}"
    what = (["source"] if entry["source_diff"] else []) + (
        ["fused nodes"]
        if any(f["a"] is None or f["b"] is None for f in entry["fused_nodes"])
        else []
    )
    return f"~ {names} ({', '.join(what)})"


def diff_labels(data: Data) -> dict[str, str]:
    """Both sides' notebook-cell labels (file -> "cell [5]")."""
    return {**(data["a"].get("source_labels") or {}), **(data["b"].get("source_labels") or {})}


def line_where(location: Data, labels: dict[str, str]) -> str:
    """``cell [2], line 13`` for a cell's line, else ``file.py:13`` (the base name)."""
    file, line = location.get("file"), location.get("line")
    label = labels.get(file) if isinstance(file, str) else None
    if label:
        return label if line is None else f"{label}, line {line}"
    return f"{str(file or '?').rsplit('/', 1)[-1]}:{line}"


def compile_title(entry: Data, labels: dict[str, str]) -> str:
    a, b = entry["a"], entry["b"]
    ref = a or b
    frame = ref["frame"]
    ids = ref["id"] if not (a and b) or a["id"] == b["id"] else f"{a['id']} -> {b['id']}"
    return f"{ids} {frame.get('function') or '?'} ({line_where(frame, labels)})"


def _listed(lines: list[str], indent: str) -> list[str]:
    out = [indent + line for line in lines[:MAX_ITEMS]]
    if len(lines) > MAX_ITEMS:
        out.append(f"{indent}… {len(lines) - MAX_ITEMS} more")
    return out


def _number(value: Any) -> str:
    return "—" if value is None else f"{value:.4g}" if isinstance(value, float) else str(value)


def render_text(data: Data) -> str:
    s = data["summary"]
    lines = [
        f"tcexplore diff: {data['a']['label']} -> {data['b']['label']}",
        (
            f"compiles: +{s['compiles_added']} -{s['compiles_removed']} ~{s['compiles_changed']}"
            f" · nodes: +{s['nodes_added']} -{s['nodes_removed']} ~{s['nodes_changed']}"
            f" · kernels: +{s['kernels_added']} -{s['kernels_removed']} ~{s['kernels_changed']}"
            f" · guards: +{s['guards_added']} -{s['guards_removed']}"
        ),
    ]
    if not any(s.values()):
        lines.append("no differences in what torch.compile produced")
    for entry in data["compiles"]:
        if entry["status"] == "same":
            continue
        lines.append(f"{entry['status']}: {compile_title(entry, diff_labels(data))}")
        for change in entry["changes"]:
            lines.append(f"  {change['field']}: {change['a']} -> {change['b']}")
        for graph in entry["graphs"]:
            note = " (aligned in order: graphs too different)" if graph["approximate"] else ""
            lines.append(f"  {graph_label(graph['graph'])}{note}")
            lines += _listed([node_line(n) for n in graph["nodes"]], "    ")
        guards = entry["guards"]
        if guards["added"] or guards["removed"]:
            lines.append("  guards")
            lines += _listed(
                [f"+ {g['expression']}" for g in guards["added"]]
                + [f"- {g['expression']}" for g in guards["removed"]],
                "    ",
            )
        for output in entry["outputs"]:
            lines.append(f"  kernels ({output['output']})")
            lines += _listed([kernel_line(k) for k in output["kernels"]], "    ")
    for section, keys in (
        ("timing", ("compiled_ms", "eager_ms", "speedup", "compile_s")),
        ("accuracy", ("ok", "max_abs_err")),
    ):
        if data.get(section):
            a, b = data[section]["a"], data[section]["b"]
            lines.append(
                f"{section}: " + ", ".join(f"{k} {_number(a[k])} -> {_number(b[k])}" for k in keys)
            )
    return "\n".join(lines)
