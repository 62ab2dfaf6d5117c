"""Kernel time rolled up to the user's source lines and files.

The chain is torch's own: a kernel's post-grad nodes (the fusion map) and each node's
source line (the ``# File:`` comments of the post-grad graph). Each launch's time is its
own (a kernel launched from several wrapper lines computes other nodes at each: one
``extern_kernels.mm`` per Linear) and is split over the nodes that launch computes, in
proportion to their work, counted as in ``roofline`` (elements of the
largest tensor each node reads or writes; one share each where shapes are symbolic), and
each node's part goes to its line. Time no line can take (nodes torch recorded no stack
for, CUDA-graph replays no kernel claims) stays in one row with no file, so the lines
always add up to the kernel total.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .roofline import document_kernel, node_elements, post_grad_nodes

Line = tuple[str | None, int | None]


def _node_shares(document: dict[str, Any], row: dict[str, Any]) -> list[tuple[dict | None, float]]:
    """(node source, time in µs) for one profiled kernel: each launch's time over the nodes
    that launch computes."""
    kernel = document_kernel(document, row)
    if kernel is None:
        return [(None, row["time_us"])]
    nodes = post_grad_nodes(document, row["compile"], row["output"])
    by_line = {s["line"]: s["post_grad_nodes"] for s in kernel.get("launch_sites") or []}
    launches = row.get("launch_sites") or [{"line": None, "time_us": row["time_us"]}]
    shares: list[tuple[dict | None, float]] = []
    for launch in launches:
        names = by_line.get(launch["line"]) or kernel.get("post_grad_nodes", [])
        fused = [nodes[n] for n in names if n in nodes]
        if not fused:
            shares.append((None, launch["time_us"]))
            continue
        weights = [node_elements(n, nodes) or 1 for n in fused]
        total = float(sum(weights))
        shares += [(n.get("source"), launch["time_us"] * w / total) for n, w in zip(fused, weights)]
    return shares


def roll_up(
    document: dict[str, Any], rows: list[dict[str, Any]], wall_us: float
) -> dict[str, list[dict[str, Any]]]:
    """``{"lines": [...], "files": [...]}``, heaviest first."""
    times: dict[Line, float] = defaultdict(float)
    code: dict[Line, dict[str, Any]] = {}
    kernels: dict[Line, set[str]] = defaultdict(set)
    for row in rows:
        for source, us in _node_shares(document, row):
            key: Line = (source["file"], source["line"]) if source else (None, None)
            times[key] += us
            if source:
                code.setdefault(key, source)
            kernels[key].add(row.get("label") or row["name"])
    share = (lambda t: t / wall_us) if wall_us else (lambda t: None)
    lines = [
        {
            "file": file,
            "line": line,
            "function": code.get((file, line), {}).get("function"),
            "code": code.get((file, line), {}).get("code"),
            "time_us": t,
            "share": share(t),
            "kernels": sorted(kernels[(file, line)]),
        }
        for (file, line), t in times.items()
    ]
    lines.sort(key=lambda r: -r["time_us"])
    by_file: dict[str | None, float] = defaultdict(float)
    for r in lines:
        by_file[r["file"]] += r["time_us"]
    files = [
        {"file": f, "time_us": t, "share": share(t)}
        for f, t in sorted(by_file.items(), key=lambda item: -item[1])
    ]
    return {"lines": lines, "files": files}
