"""Fusion groups: which post-grad nodes each generated kernel (or extern call) computes.

Sources, in order of precedence, all emitted by torch:
1. the provenance mapping (``inductor_provenance_tracking_node_mappings``), keyed by the
   ``name:handle`` that the wrapper prints above each launch;
2. the ``Graph fragment`` comment Inductor writes above a Triton kernel;
3. the ``Source Nodes`` comment above an extern call, when it names post-grad nodes.
A compute node that none of them attributes to a kernel is reported as unmapped, unless
its value is never used: Inductor's scheduler drops an operation whose outputs have no
users and that has no side effects (``dead_node_elimination``), so no kernel computes it;
such nodes are listed as ``dead_nodes``.

Not compute, never counted: placeholders and outputs, ``getitem``, symbolic sizes, views
(Inductor lowers them to pointer arithmetic) and allocations (``_ALLOCATIONS``).
"""

from __future__ import annotations

from typing import Any

from .op_table import has_side_effects, is_view_op

_NON_COMPUTE_TARGETS = ("operator.getitem", "torch.ops.aten.sym_", "torch.sym_", "torch._sym_")
# Ops whose result is uninitialised memory: Inductor lowers them to a buffer allocation in
# the wrapper (``empty_strided_cpu/cuda(...)``); the kernel that later writes the buffer is
# the compute, and is mapped to the node that writes it (e.g. a user Triton kernel).
_ALLOCATIONS = tuple(f"torch.ops.aten.{name}." for name in (
    "empty", "empty_like", "empty_strided", "empty_permuted", "new_empty", "new_empty_strided"))


def _kernel_to_nodes(provenance: dict[str, Any] | None) -> dict[str, list[str]]:
    mapping: dict[str, list[str]] = {}
    for key, value in (provenance or {}).items():
        if key.endswith("CodeToPost") and isinstance(value, dict):
            mapping.update(value)
    return mapping


def is_compute_node(node: dict[str, Any]) -> bool:
    if node["op"] != "call_function":
        return False
    meta = node.get("meta") or {}
    if meta.get("kind") == "symint":
        return False
    target = node["target"]
    return (not target.startswith(_NON_COMPUTE_TARGETS + _ALLOCATIONS)
            and not is_view_op(target))


def _live_nodes(graph_nodes: list[dict[str, Any]]) -> set[str]:
    """Nodes whose value reaches the output or a side effect (the rest Inductor drops)."""
    live: set[str] = set()
    for node in reversed(graph_nodes):  # topological order: users come later
        if (node["op"] == "output"
                or (node["op"] == "call_function"
                    and has_side_effects(node["target"]))
                or any(user in live for user in node["users"])):
            live.add(node["name"])
    return live


def attribute_kernels(record: dict[str, Any]) -> None:
    for output in record["output_codes"]:
        index = output["post_grad_graph"]
        graph = record["post_grad_graphs"][index] if index >= 0 else None
        nodes = {n["name"]: n for n in graph["nodes"]} if graph else {}
        mapping = _kernel_to_nodes(output["provenance"])
        for kernel in output["kernels"]:
            found = [n for handle in kernel["handles"] for n in mapping.get(handle, [])]
            if found:
                how = "provenance"
            elif kernel["fragment_nodes"]:
                found, how = kernel["fragment_nodes"], "kernel_comment"
            elif any(n in nodes for n in kernel["source_nodes"]):
                found, how = [n for n in kernel["source_nodes"] if n in nodes], "kernel_comment"
            else:
                how = "none"
            kernel["post_grad_nodes"] = list(dict.fromkeys(found))
            kernel["mapping"] = how
            del kernel["fragment_nodes"]
            known = [nodes[n] for n in kernel["post_grad_nodes"] if n in nodes]
            if known:
                kernel["aten_ops"] = list(dict.fromkeys(n["target"] for n in known))
            kernel["user_lines"] = list({
                (n["source"]["file"], n["source"]["line"]): n["source"]
                for n in known if n.get("source")
            }.values())
            for node in known:
                node.setdefault("kernels", []).append(kernel["name"])
        unclaimed = [name for name, node in nodes.items()
                     if is_compute_node(node) and not node.get("kernels")]
        if not unclaimed:
            live: set[str] = set()
        elif graph["nodes_truncated"]:  # the users of its last nodes are missing: none is dead
            live = set(unclaimed)
        else:
            live = _live_nodes(graph["nodes"])
        output["unmapped_nodes"] = [name for name in unclaimed if name in live]
        output["dead_nodes"] = [name for name in unclaimed if name not in live]
