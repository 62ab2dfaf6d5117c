"""The collectives a compiled graph runs, in order, read from the graphs torch emitted.

A collective appears as an op of the c10d functional namespaces (``all_reduce``,
``all_gather_into_tensor``, ``reduce_scatter_tensor``, ``wait_tensor``…: what
``torch.distributed._functional_collectives`` and Dynamo's rewrites of in-place
``dist.all_reduce`` lower to) or of ``c10d`` itself. The order is taken from the most
downstream source a compile has: Inductor's collective schedule (the order it will run
them, after its reordering passes), else the post-grad graphs, the AOT graphs, the Dynamo
graph. In-place variants (``all_reduce_``) are named as their functional op, so the same
program reads the same at every level.
"""

from __future__ import annotations

import re
from typing import Any

_OP = re.compile(
    r"(?:^|\.)(?:_c10d_functional_autograd|_c10d_functional|c10d_functional|c10d|"
    r"_functional_collectives|distributed_c10d)\.(?P<name>[A-Za-z]\w*)"
)
LEVELS = ("inductor schedule", "post-grad", "aot", "dynamo")


def op_name(target: Any) -> str | None:
    """``torch.ops._c10d_functional.all_reduce_.default`` -> ``all_reduce``; None if no collective."""
    match = _OP.search(str(target or ""))
    return match["name"].rstrip("_") if match else None


def _graph_ops(graphs: list[Any]) -> list[str]:
    ops = []
    for graph in graphs:
        for node in (graph or {}).get("nodes") or []:
            if node.get("op") == "call_function" and (name := op_name(node.get("target"))):
                ops.append(name)
    return ops


def collectives_by_level(record: dict[str, Any]) -> dict[str, list[str]]:
    """For one compile record, the collectives each level of graph shows (levels with none left out)."""
    aot = record.get("aot_graphs") or {}
    found = {
        "inductor schedule": [
            name
            for schedule in record.get("collective_schedules") or []
            for op in schedule
            if (name := op_name(op))
        ],
        "post-grad": _graph_ops(record.get("post_grad_graphs") or []),
        "aot": _graph_ops([aot[k] for k in ("inference", "forward", "backward") if k in aot]),
        "dynamo": _graph_ops([record.get("dynamo_graph")]),
    }
    return {level: ops for level, ops in found.items() if ops}


def collectives(
    record: dict[str, Any], levels: tuple[str, ...] = LEVELS
) -> tuple[str | None, list[str]]:
    """The most downstream of ``levels`` that shows collectives, and them in order."""
    found = collectives_by_level(record)
    for level in levels:
        if level in found:
            return level, found[level]
    return None, []
