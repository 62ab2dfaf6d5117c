"""The divergence findings of what Dynamo traced: graph breaks on some ranks only, Dynamo
graphs that differ (with their first differing node)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..render.rank_ranges import ranks_text
from .divergence_finding import Doc, RankDocs, by_compile_id, finding, function_name, grouped


def graph_breaks(docs: RankDocs) -> list[dict[str, Any]]:
    """Break locations and reasons per rank (as sets: a recompile repeating a break is a
    recompile finding, not a new break)."""
    ranks = [r for r, _ in docs]
    seen: dict[tuple, dict[int, list[str]]] = {}
    for rank, doc in docs:
        for brk in doc.get("graph_breaks") or []:
            reason = str(brk.get("reason") or "").strip().splitlines()
            key = (brk.get("file"), brk.get("line"), reason[-1] if reason else "")
            seen.setdefault(key, {}).setdefault(rank, []).append(str(brk.get("compile_id")))
    findings = []
    for (file, line, reason), per_rank in seen.items():
        if len(per_rank) == len(ranks):
            continue
        present = sorted(per_rank)
        groups = [
            {"ranks": present, "value": "breaks"},
            {"ranks": [r for r in ranks if r not in per_rank], "value": "no break"},
        ]
        evidence = [
            {"rank": r, "text": f"{file}:{line}, in compile {', '.join(cids)}: {reason}"}
            for r, cids in sorted(per_rank.items())
        ]
        findings.append(
            finding(
                "graph_breaks",
                f"graph break at {Path(str(file)).name}:{line} on "
                f"{ranks_text(present)} only: {reason}",
                groups,
                evidence,
                compile_id=next(iter(per_rank.values()))[0],
                quiet="no break",
            )
        )
    return findings


def _node_signature(node: Doc) -> str:
    meta = node.get("meta") or {}
    if meta.get("kind") == "tensor":
        device = str(meta.get("device") or "").split(":")[0]  # cuda:0 and cuda:1 are alike
        shape = f"{meta.get('dtype')}[{', '.join(meta.get('shape') or [])}] {device}".strip()
    elif meta.get("kind") == "symint":
        shape = f"Sym({meta.get('expr')})"
    else:
        shape = ""
    return f"{node.get('op')} {node.get('target')} {shape}".strip()


def dynamo_graphs(docs: RankDocs) -> list[dict[str, Any]]:
    findings = []
    for cid, per_rank in by_compile_id(docs).items():
        graphs = {
            r: rec["dynamo_graph"]["nodes"]
            for r, rec in per_rank.items()
            if rec.get("dynamo_graph")
        }
        if len(graphs) < 2:
            continue
        signatures = {r: [_node_signature(n) for n in nodes] for r, nodes in graphs.items()}
        values = {r: "\n".join(sig) for r, sig in signatures.items()}
        groups = grouped(values)
        if len(groups) < 2:
            continue
        for group in groups:
            group["value"] = f"{len(graphs[group['ranks'][0]])} nodes"
        reference = groups[0]["ranks"][0]
        evidence = []
        for group in groups[1:]:
            other = group["ranks"][0]
            evidence.append(
                {
                    "rank": other,
                    "text": _first_difference(graphs[reference], graphs[other], reference, other),
                }
            )
        sizes = "; ".join(f"{ranks_text(g['ranks'])}: {g['value']}" for g in groups)
        findings.append(
            finding(
                "graph",
                f"the Dynamo graph of compile {cid} (`{function_name(per_rank[reference])}`) "
                f"differs across ranks ({sizes})",
                groups,
                evidence,
                compile_id=cid,
            )
        )
    return findings


def _shown(node: Doc) -> str:
    """A node as evidence: ``name = target shape`` (``name (output)`` for placeholders and outputs)."""
    signature = _node_signature(node).split(" ", 2)
    if node.get("op") in ("placeholder", "output"):
        return f"`{node.get('name')}` ({node.get('op')}{' ' + signature[2] if len(signature) > 2 else ''})"
    return f"`{node.get('name')}` = {' '.join(signature[1:])}"


def _first_difference(a: list[Doc], b: list[Doc], rank_a: int, rank_b: int) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if _node_signature(x) != _node_signature(y):
            return f"node {i}: rank {rank_a} {_shown(x)}; rank {rank_b} {_shown(y)}"
    longer, rank = (a, rank_a) if len(a) > len(b) else (b, rank_b)
    extra = longer[min(len(a), len(b))]
    return (
        f"rank {rank} has {abs(len(a) - len(b))} more nodes, from node "
        f"{min(len(a), len(b))}: {_shown(extra)}"
    )
