"""The multi-rank document: per rank its entry, the findings, the rank documents.

Each rank entry carries what the side-by-side view needs (summary, compiles, graph
breaks, collectives, where the data came from and what it lacks) so the view works
without the rank documents. Those are embedded whole when the multi-rank document is
saved, while their total stays within ``embed_limit`` bytes of JSON; beyond it they are
left out with their size and where to find them.
"""

from __future__ import annotations

import datetime
from typing import Any

import orjson

from .._version import __version__
from ..common.formatting import plural
from ..document import SCHEMA
from ..findings import listing
from ..render.rank_ranges import ranks_text
from .divergence import find_divergence
from .settle import inputs_finding

EMBED_LIMIT = 50_000_000  # bytes of rank-document JSON a saved multi-rank document embeds


def build_ranks_document(
    digests: list[dict[str, Any]],
    embed_limit: int = EMBED_LIMIT,
    inputs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """From the digests of :func:`.digest.digest_rank`, by rank, and the ``inputs`` section
    of :func:`.settle.settle`."""
    entries = [d["entry"] for d in digests]
    world_sizes = [(e.get("distributed") or {}).get("world_size") for e in entries]
    world_size = next((w for w in world_sizes if w), None)
    budget = embed_limit
    for digest in digests:
        size = digest["bytes"]
        if size is not None and size <= budget:
            budget -= size  # embedded when saved (Ranks.save)
        else:
            where = digest["document_path"]
            digest["entry"]["document_left_out"] = {
                "reason": f"the embedded rank documents would exceed {embed_limit:,} bytes"
                + (f"; open {where}" if where else ""),
                "bytes": size or 0,
            }
    divergence = inputs_finding(inputs, [e["rank"] for e in entries]) + find_divergence(
        [(d["rank"], d["slim"]) for d in digests], world_size
    )
    return {
        "schema": SCHEMA,
        "kind": "ranks",
        "tool": {"name": "tcexplore", "version": __version__},
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "world_size": world_size,
        "headline": headline(entries, world_size, divergence, inputs),
        "inputs": inputs,
        "ranks": entries,
        "divergence": divergence,
        "rank_groups": rank_groups(entries),
        "listing": listing.ranks(entries, divergence),
    }


# What find_divergence compares, as the headline says it when nothing differs.
COMPARED = (
    "the same compile ids, recompiles, graph breaks, Dynamo graphs, collectives, compile "
    "results, cache results and versions"
)


def headline(
    entries: list[dict[str, Any]],
    world_size: int | None,
    divergence: list[dict[str, Any]],
    inputs: dict | None,
) -> str:
    """The view's first line: how many ranks, whether they diverge, and what of the inputs
    was not read as given (a rank with more than one file, files skipped, logs cut short)."""
    partial = [e["rank"] for e in entries if (e.get("capture") or {}).get("partial")]
    world = f" of world size {world_size}" if world_size else ""
    found = (
        plural(len(divergence), "divergence finding")
        if divergence
        else f"no divergence ({COMPARED})"
    )
    text = f"{plural(len(entries), 'rank')}{world}: {found}"
    conflicts = (inputs or {}).get("conflicts") or []
    if conflicts:
        text += "; the inputs held more than one file for " + ranks_text(
            sorted(c["rank"] for c in conflicts)
        )
    stray = [s for s in (inputs or {}).get("skipped") or [] if s["rank"] is None]
    if stray:
        text += f"; {plural(len(stray), 'file')} skipped, each with why"
    if partial:
        text += f"; the {'log' if len(partial) == 1 else 'logs'} of {ranks_text(partial)} "
        text += f"{'is' if len(partial) == 1 else 'are'} cut short (partial)"
    return text


# What makes two ranks' entries alike: all but where they came from and who they are (the rule
# that gave their rank is drawn in their column, so it is part of it).
_ALIKE = ("environment", "summary", "compiles", "graph_breaks", "collectives", "error", "rank_from")


def rank_groups(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ranks whose entries are alike, in groups ordered by their lowest rank: at hundreds of
    ranks, the view shows "ranks 0-62" once instead of 63 equal columns."""
    groups: dict[bytes, list[int]] = {}
    for entry in entries:
        capture = entry.get("capture") or {}
        key = orjson.dumps(
            [entry.get(k) for k in _ALIKE] + [capture.get("partial"), capture.get("unavailable")],
            option=orjson.OPT_SORT_KEYS,
        )
        groups.setdefault(key, []).append(entry["rank"])
    return [{"ranks": ranks, "label": ranks_text(ranks)} for ranks in groups.values()]
