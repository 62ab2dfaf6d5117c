"""A compile's static memory section: what AOTAutograd keeps for backward, what it
recomputes, and what Inductor's wrappers allocate.

Read from what torch emitted only. The partitioner's forward graph returns the user's outputs
then the tensors it saves; the backward graph takes those saved values as placeholders
named after their forward nodes, then ``tangents_*``. So a backward placeholder that is not a
tangent names a saved forward node, whose annotation gives shape, stride and dtype, and
whose ``# File:`` comment gives the user line. A backward node with a forward node's name
is that node computed again (the joint graph's names are unique, and the partitioner copies
nodes into the backward with their names): what checkpointing, ``activation_memory_budget``
or the min-cut's cheap-op recompute chose. Distinct storages: a saved view shares its base's
storage (views followed back through the forward graph), so the total counts each once.
"""

from __future__ import annotations

from typing import Any

from .op_table import is_view_op
from .parsers.buffers import parse_buffers, storage_bytes

TOP_LINES = 10


def memory_section(record: dict[str, Any], budget: float | None) -> dict[str, Any] | None:
    """``compiles[].memory``; None for a compile with no AOT graph and no output code."""
    aot = record["aot_graphs"]
    forward, backward = aot.get("forward"), aot.get("backward")
    if not (forward or backward or record["output_codes"]):
        return None
    saved = recomputed = None
    if forward and backward:
        saved = saved_for_backward(
            forward["nodes"], backward["nodes"], _input_kinds(record, forward["nodes"])
        )
        recomputed = recomputed_nodes(forward["nodes"], backward["nodes"])
    return {
        "saved_for_backward": saved,
        "recomputed": recomputed,
        "activation_memory_budget": budget,
        "buffers": [
            {"output_code": index, "kind": code["kind"], **parse_buffers(code["text"])}
            for index, code in enumerate(record["output_codes"])
        ],
    }


def _input_kinds(record: dict[str, Any], forward: list[dict[str, Any]]) -> dict[str, str]:
    """``primals_k`` -> parameter or input: the k-th placeholder of Dynamo's graph, whose
    name says whether it is a module's parameter or buffer (module state) or an input."""
    dynamo = [
        n["name"]
        for n in (record["dynamo_graph"] or {"nodes": []})["nodes"]
        if n["op"] == "placeholder"
    ]
    primals = [n["name"] for n in forward if n["op"] == "placeholder"]
    if len(dynamo) != len(primals):
        return {}
    return {
        p: "parameter" if ("_parameters_" in d or "_buffers_" in d) else "input"
        for p, d in zip(primals, dynamo)
    }


def _location(source: dict[str, Any] | None) -> dict[str, Any] | None:
    if not source:
        return None
    return {
        "file": source["file"],
        "line": source["line"],
        "function": source["function"],
        "code": source.get("code"),
    }


def _base(node: dict[str, Any], by_name: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The node whose storage ``node`` views (itself when it is not a view)."""
    seen = set()
    while (
        node["op"] == "call_function"
        and is_view_op(node["target"])
        and node["args"]
        and node["name"] not in seen
    ):
        seen.add(node["name"])
        node = by_name.get(node["args"][0], node)
    return node


def _bytes(meta: dict[str, Any] | None) -> int | None:
    if not meta or meta.get("kind") != "tensor":
        return None
    try:
        size, stride = [int(s) for s in meta["shape"]], [int(s) for s in meta["stride"]]
    except ValueError:
        return None
    return storage_bytes(size, stride, meta["dtype"])


def saved_for_backward(
    forward: list[dict[str, Any]], backward: list[dict[str, Any]], input_kinds: dict[str, str]
) -> dict[str, Any]:
    by_name = {n["name"]: n for n in forward}
    tensors, storages = [], {}
    for placeholder in backward:
        if placeholder["op"] != "placeholder" or placeholder["name"].startswith("tangents"):
            continue
        meta = placeholder["meta"] or {}
        if meta.get("kind") != "tensor":
            continue  # a saved SymInt: no memory
        node = by_name.get(placeholder["name"])
        base = _base(node, by_name) if node else None
        if base is not None and base["op"] == "placeholder":
            kind = input_kinds.get(base["name"], "input")
        else:
            kind = "activation"
        size = _bytes(meta)
        tensors.append(
            {
                "node": placeholder["name"],
                "target": node["target"] if node else None,
                "shape": meta["shape"],
                "dtype": meta["dtype"],
                "bytes": size,
                "kind": kind,
                "storage": base["name"] if base else placeholder["name"],
                "user_location": _location(node and (node["source"] or base["source"])),
            }
        )
        storage = base["name"] if base else placeholder["name"]
        storages.setdefault(storage, _bytes(base["meta"]) if base else size)
    sized = [b for b in storages.values() if b is not None]
    tensors.sort(key=lambda t: -(t["bytes"] or 0))
    return {
        "bytes": sum(sized),
        "unsized": len(storages) - len(sized),
        "storages": len(storages),
        "tensors": tensors,
        "bytes_by_kind": {
            k: sum(_storage_bytes(tensors, storages, k))
            for k in ("activation", "parameter", "input")
        },
        "lines": _top_lines(tensors, storages),
    }


def _storage_bytes(
    tensors: list[dict[str, Any]], storages: dict[str, int | None], kind: str
) -> list[int]:
    seen = {t["storage"] for t in tensors if t["kind"] == kind}
    return [storages[s] or 0 for s in seen]


def _top_lines(tensors: list[dict[str, Any]], storages: dict[str, int | None]) -> list[Any]:
    """Saved activations' storages summed per user line, most bytes first."""
    lines: dict[tuple[str, int], dict[str, Any]] = {}
    counted: set[str] = set()
    for tensor in tensors:
        where = tensor["user_location"]
        if tensor["kind"] != "activation" or where is None or tensor["storage"] in counted:
            continue
        counted.add(tensor["storage"])
        entry = lines.setdefault((where["file"], where["line"]), {**where, "bytes": 0, "nodes": []})
        entry["bytes"] += storages[tensor["storage"]] or 0
        entry["nodes"].append(tensor["node"])
    return sorted(lines.values(), key=lambda e: -e["bytes"])[:TOP_LINES]


def recomputed_nodes(
    forward: list[dict[str, Any]], backward: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Forward nodes the backward computes again (the partitioner gives a recomputed node its
    forward name); views (pointer arithmetic, no memory) are left out. The user line is the
    backward node's own, else its forward node's: torch 2.15 prints recomputed nodes in the
    backward graph without their stack trace."""
    in_forward = {n["name"]: n for n in forward if n["op"] == "call_function"}
    return [
        {
            "node": n["name"],
            "target": n["target"],
            "user_location": _location(n["source"] or in_forward[n["name"]]["source"]),
            "bytes": _bytes(n["meta"]),
        }
        for n in backward
        if n["op"] == "call_function" and n["name"] in in_forward and not is_view_op(n["target"])
    ]
