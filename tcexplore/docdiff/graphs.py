"""The graph and node diff of two paired compiles: graphs paired by what they are (dynamo,
aot:<kind>, post:<output code>), nodes aligned by their keys, and each pair's renaming (a's
node name -> b's) for the kernel diff. As ``extension/src/model/diffgraphs.ts``."""

from __future__ import annotations

from .align import matches, rows
from .identity import Data, node_key, node_target, source_id, text

AOT_KINDS = ("forward", "backward", "inference")


def output_ids(record: Data) -> list[str]:
    """Each output code as identity: its kind, and "#n" from the second of a kind on."""
    seen: dict[str, int] = {}
    ids = []
    for output in record.get("output_codes") or []:
        kind = text(output.get("kind"))
        ids.append(kind if kind not in seen else f"{kind}#{seen[kind]}")
        seen[kind] = seen.get(kind, 0) + 1
    return ids


def post_grad_ids(record: Data) -> list[str]:
    """Each post-grad graph as identity: the output code compiled from it, else "#index"."""
    outputs, ids = record.get("output_codes") or [], output_ids(record)
    found = []
    for index in range(len(record.get("post_grad_graphs") or [])):
        owner = next(
            (ids[n] for n, o in enumerate(outputs) if o.get("post_grad_graph") == index),
            f"#{index}",
        )
        found.append(owner if owner not in found else f"#{index}")
    return found


def _graphs_of(record: Data) -> dict[str, tuple[str, Data]]:
    """identity -> (the explorer's key for the graph, the graph)."""
    found: dict[str, tuple[str, Data]] = {}
    if isinstance(record.get("dynamo_graph"), dict):
        found["dynamo"] = ("dynamo", record["dynamo_graph"])
    aot = record.get("aot_graphs") or {}
    for kind in AOT_KINDS:
        if isinstance(aot.get(kind), dict):
            found[f"aot:{kind}"] = (f"aot:{kind}", aot[kind])
    for index, (graph, ident) in enumerate(
        zip(record.get("post_grad_graphs") or [], post_grad_ids(record))
    ):
        found[f"post:{ident}"] = (f"post:{index}", graph)
    return found


def graphs(
    x: Data, y: Data, la: dict[str, str], lb: dict[str, str]
) -> tuple[list[Data], dict[str, dict[str, str]]]:
    """Graph entries, and per graph identity the A-name -> B-name node alignment."""
    ga, gb = _graphs_of(x), _graphs_of(y)
    entries, renames = [], {}
    for ident in [*ga, *(k for k in gb if k not in ga)]:
        key_a, graph_a = ga.get(ident, (None, {}))
        key_b, graph_b = gb.get(ident, (None, {}))
        nodes, rename, approximate = _nodes(
            graph_a.get("nodes") or [], graph_b.get("nodes") or [], la, lb
        )
        renames[ident] = rename
        entries.append(
            {"graph": ident, "a": key_a, "b": key_b, "approximate": approximate, "nodes": nodes}
        )
    return entries, renames


def _node_view(node: Data) -> Data:
    meta = node.get("meta") if isinstance(node.get("meta"), dict) else {}
    source = node.get("source")
    return {
        "name": node.get("name"),
        "op": node.get("op"),
        "target": node.get("target"),
        "args": list(node.get("args") or []),
        "shape": meta.get("shape") if isinstance(meta.get("shape"), list) else None,
        "dtype": meta.get("dtype") if isinstance(meta.get("dtype"), str) else None,
        "source": {
            "file": source.get("file"),
            "line": source.get("line"),
            "function": source.get("function"),
            "code": source.get("code"),
        }
        if isinstance(source, dict)
        else None,
    }


def _node_changes(
    x: Data, y: Data, rename: dict[str, str], la: dict[str, str], lb: dict[str, str]
) -> list[str]:
    vx, vy = _node_view(x), _node_view(y)
    changes = ["target"] if node_target(x) != node_target(y) else []
    changes += [field for field in ("shape", "dtype") if vx[field] != vy[field]]
    if source_id(x.get("source"), la) != source_id(y.get("source"), lb):
        changes.append("source")
    if [rename.get(arg) for arg in vx["args"]] != vy["args"]:
        changes.append("inputs")
    return changes


def _nodes(
    na: list[Data], nb: list[Data], la: dict[str, str], lb: dict[str, str]
) -> tuple[list[Data], dict[str, str], bool]:
    found, approximate = matches([node_key(n, la) for n in na], [node_key(n, lb) for n in nb])
    aligned = rows(len(na), len(nb), found, lambda i, j: na[i].get("op") == nb[j].get("op"))
    rename = {
        text(na[i].get("name")): text(nb[j].get("name"))
        for i, j in aligned
        if i is not None and j is not None
    }
    entries = []
    for i, j in aligned:
        if i is None or j is None:
            entries.append(
                {
                    "status": "added" if i is None else "removed",
                    "a": None if i is None else _node_view(na[i]),
                    "b": None if j is None else _node_view(nb[j]),
                    "changes": [],
                }
            )
            continue
        changes = _node_changes(na[i], nb[j], rename, la, lb)
        if changes:
            entries.append(
                {
                    "status": "changed",
                    "a": _node_view(na[i]),
                    "b": _node_view(nb[j]),
                    "changes": changes,
                }
            )
    return entries, rename, approximate
