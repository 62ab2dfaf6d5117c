"""Fusion groups: which post-grad nodes each generated kernel (or extern call) computes,
and each launch of it (``launch_sites``: a kernel launched from several wrapper lines
computes other nodes at each, e.g. one ``cpp_fused_relu_0`` after each of three Linears).

Sources, in order of precedence, all emitted by torch:
1. the provenance mapping (``inductor_provenance_tracking_node_mappings``), keyed by the
   ``name:handle`` that the wrapper prints above each launch;
2. the ``Graph fragment`` comment Inductor writes above a Triton kernel;
3. the ``Source Nodes`` comment above an extern call, when it names post-grad nodes.
A user Triton kernel computes only the ``triton_kernel_wrapper_*`` node that launches it:
torch gives every kernel made while lowering that node the origins of its unrealized
inputs too (``GraphLowering.run_node``), so on ``kernel(relu(x) + 1)`` the user kernel and
the fused pointwise kernel both claim the wrapper, ``add`` and ``relu``; the user kernel
keeps the wrapper, the generated kernel the rest. (Nodes fused into a foreach/combo
kernel are recorded by capture itself: ``_torch_compat.fused_node_provenance``.)
A compute node that none of them attributes to a kernel is reported as unmapped, unless
its value is never used: Inductor's scheduler drops an operation whose outputs have no
users and that has no side effects (``dead_node_elimination``), so no kernel computes it;
such nodes are listed as ``dead_nodes``.

Not compute, never counted: placeholders and outputs, ``getitem``, symbolic sizes, views
(Inductor lowers them to pointer arithmetic), allocations (``_ALLOCATIONS``) and runtime
checks (``_CHECKS``: each ``_assert_scalar`` node gets the wrapper line of its check).
A nested compile region's ``invoke_subgraph`` node is the call of its subgraph's function
(``subgraph_call``), and the kernels that function launches compute the subgraph's nodes.
"""

from __future__ import annotations

import re
from typing import Any

from .op_table import has_side_effects, is_view_op
from .parsers.fx_text import INVOKE_SUBGRAPH

_USER_KERNEL_WRAPPERS = "torch.ops.higher_order.triton_kernel_wrapper_"
_NON_COMPUTE_TARGETS = ("operator.getitem", "torch.ops.aten.sym_", "torch.sym_", "torch._sym_")
# Ops whose result is uninitialised memory: Inductor lowers them to a buffer allocation in
# the wrapper (``empty_strided_cpu/cuda(...)``); the kernel that later writes the buffer is
# the compute, and is mapped to the node that writes it (e.g. a user Triton kernel).
# Runtime checks (deferred asserts on unbacked symbols): Inductor writes each as an
# ``if not (...): raise RuntimeError(...)`` in the wrapper, never a kernel.
_CHECKS = ("torch.ops.aten._assert_scalar.", "torch.ops.aten._assert_tensor_metadata.")
_ASSERTED = re.compile(r"Runtime assertion failed for expression (?P<expr>.+?) on node ")
_ALLOCATIONS = tuple(
    f"torch.ops.aten.{name}."
    for name in (
        "empty",
        "empty_like",
        "empty_strided",
        "empty_permuted",
        "new_empty",
        "new_empty_strided",
    )
)


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
    return not target.startswith(_NON_COMPUTE_TARGETS + _ALLOCATIONS + _CHECKS) and not is_view_op(
        target
    )


def _live_nodes(graph_nodes: list[dict[str, Any]]) -> set[str]:
    """Nodes whose value reaches the output or a side effect (the rest Inductor drops)."""
    live: set[str] = set()
    for node in reversed(graph_nodes):  # topological order: users come later
        if (
            node["op"] == "output"
            or (node["op"] == "call_function" and has_side_effects(node["target"]))
            or any(user in live for user in node["users"])
        ):
            live.add(node["name"])
    return live


def _claimed(
    kernel: dict[str, Any], mapping: dict[str, list[str]], nodes: dict[str, Any]
) -> tuple[list[str], str]:
    """The post-grad nodes torch attributes to ``kernel``, and from where."""
    found = [n for handle in kernel["handles"] for n in mapping.get(handle, [])]
    if found:
        return list(dict.fromkeys(found)), "provenance"
    if kernel["fragment_nodes"]:
        return list(dict.fromkeys(kernel["fragment_nodes"])), "kernel_comment"
    if any(n in nodes for n in kernel["source_nodes"]):
        return list(
            dict.fromkeys(n for n in kernel["source_nodes"] if n in nodes)
        ), "kernel_comment"
    return [], "none"


def _is_user_kernel_launch(node: dict[str, Any] | None) -> bool:
    return bool(node) and node["target"].startswith(_USER_KERNEL_WRAPPERS)


def _user_kernels_keep_their_launch(kernels: list[dict[str, Any]], nodes: dict[str, Any]) -> None:
    """A user Triton kernel computes its ``triton_kernel_wrapper_*`` node and nothing else;
    a generated kernel never computes a user kernel's launch."""
    launches: set[str] = set()
    for kernel in kernels:
        if kernel["triton_kind"] == "user":
            own = [n for n in kernel["post_grad_nodes"] if _is_user_kernel_launch(nodes.get(n))]
            if own:
                kernel["post_grad_nodes"] = own
                launches.update(own)
    for kernel in kernels:
        if kernel["triton_kind"] != "user" and kernel["kind"] != "extern":
            kernel["post_grad_nodes"] = [n for n in kernel["post_grad_nodes"] if n not in launches]


def _launch_nodes(
    site: dict[str, Any],
    kernel: dict[str, Any],
    mapping: dict[str, list[str]],
    nodes: dict[str, Any],
) -> list[str]:
    """The nodes one launch of ``kernel`` computes: what torch attributes to that launch's
    own handle (else its own comment), among the kernel's; a kernel launched from several
    lines of the wrapper (Inductor defines identical code once) computes other nodes at
    each. A launch torch names nothing for is charged to all the kernel's nodes."""
    own = [n for handle in site["handles"] for n in mapping.get(handle, [])] or [
        n for n in site["source_nodes"] if n in nodes
    ]
    mine = set(kernel["post_grad_nodes"])
    return [n for n in dict.fromkeys(own) if n in mine] or list(kernel["post_grad_nodes"])


def _call_subgraphs(output: dict[str, Any], graph: dict[str, Any] | None) -> None:
    """Each ``invoke_subgraph`` node to its call of the subgraph's function in the wrapper:
    Inductor emits one call per node, in the graph's order (``subgraph_calls[].node``,
    the node's ``subgraph_call``: the wrapper line)."""
    for subgraph in (graph or {}).get("subgraphs", []):
        calls = [c for c in output["subgraph_calls"] if c["subgraph"] == subgraph["name"]]
        if len(calls) != len(subgraph["invoked_by"]):
            continue  # not one call per node: left unmapped rather than guessed
        nodes = {n["name"]: n for n in graph["nodes"]}
        for call, name in zip(calls, subgraph["invoked_by"]):
            call["node"] = name
            nodes[name]["subgraph_call"] = call["line"]


def _invokes(node: dict[str, Any] | None) -> bool:
    return bool(node) and (node["target"] == INVOKE_SUBGRAPH or node["op"] == "get_attr")


def _scopes(
    kernel: dict[str, Any], nodes: dict[str, Any], scoped: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The node tables a kernel computes in: the subgraphs whose functions launch it (None:
    the graph's own call()), else the graph's."""
    if not kernel["subgraphs"]:
        return [nodes]
    return [scoped.get(name, nodes) if name else nodes for name in kernel["subgraphs"]]


def _merged(tables: list[dict[str, Any]]) -> dict[str, Any]:
    return tables[0] if len(tables) == 1 else {k: v for t in tables for k, v in t.items()}


def _locate_checks(output: dict[str, Any], nodes: dict[str, Any]) -> None:
    """Each ``_assert_scalar`` node to the wrapper's check of the same expression
    (``check``: its line), which torch's message names."""
    lines = {}
    for check in output["checks"]:
        lines.setdefault(check["expr"], check["line"])
    for node in nodes.values():
        if node["op"] == "call_function" and node["target"].startswith(_CHECKS[0]):
            asserted = _ASSERTED.search(node.get("code") or "")
            if asserted and asserted["expr"] in lines:
                node["check"] = lines[asserted["expr"]]


def attribute_kernels(record: dict[str, Any]) -> None:
    for output in record["output_codes"]:
        index = output["post_grad_graph"]
        graph = record["post_grad_graphs"][index] if index >= 0 else None
        nodes = {n["name"]: n for n in graph["nodes"]} if graph else {}
        # A kernel launched inside a nested region's function computes that subgraph's nodes.
        scoped = {
            s["name"]: {n["name"]: n for n in s["nodes"]}
            for s in (graph or {}).get("subgraphs", [])
        }
        mapping = _kernel_to_nodes(output["provenance"])
        for kernel in output["kernels"]:
            among = _scopes(kernel, nodes, scoped)
            table = _merged(among)
            claimed, kernel["mapping"] = _claimed(kernel, mapping, table)
            # Provenance also gives a subgraph's kernels the node that invoked it and the
            # subgraph's attribute: those run as the call of the subgraph's function.
            kernel["post_grad_nodes"] = [
                n
                for n in claimed
                if (n in table or not kernel["subgraphs"]) and not _invokes(table.get(n))
            ]
            del kernel["fragment_nodes"]
        _user_kernels_keep_their_launch(output["kernels"], nodes)
        _call_subgraphs(output, graph)
        _locate_checks(output, nodes)
        for kernel in output["kernels"]:
            kernel["launch_sites"] = [
                {
                    "line": site["line"],
                    "post_grad_nodes": _launch_nodes(site, kernel, mapping, nodes),
                }
                for site in kernel["launch_sites"]
            ]
            known = [
                scope[n]
                for scope in _scopes(kernel, nodes, scoped)
                for n in kernel["post_grad_nodes"]
                if n in scope
            ]
            if known:
                kernel["aten_ops"] = list(dict.fromkeys(n["target"] for n in known))
            kernel["user_lines"] = list(
                {
                    (n["source"]["file"], n["source"]["line"]): n["source"]
                    for n in known
                    if n.get("source")
                }.values()
            )
            for node in known:
                node.setdefault("kernels", []).append(kernel["name"])
        unclaimed = [
            name
            for name, node in nodes.items()
            if is_compute_node(node) and not node.get("kernels") and "subgraph_call" not in node
        ]
        unclaimed += [
            f"{sub}.{name}"
            for sub, sub_nodes in scoped.items()
            for name, node in sub_nodes.items()
            if is_compute_node(node) and not node.get("kernels")
        ]
        if not unclaimed:
            live: set[str] = set()
        elif graph["nodes_truncated"]:  # the users of its last nodes are missing: none is dead
            live = set(unclaimed)
        else:
            live = _live_nodes(graph["nodes"]) | {
                f"{s['name']}.{name}"
                for s in graph.get("subgraphs", [])
                for name in _live_nodes(s["nodes"])
            }
        output["unmapped_nodes"] = [name for name in unclaimed if name in live]
        output["dead_nodes"] = [name for name in unclaimed if name not in live]
