"""Where the ranks of one job differ, from their documents alone.

Every rank of a data-parallel job should compile the same frames, with the same graphs,
and run the same collectives in the same order; where they do not, the job is slow at
best and hangs at worst. Each finding names the ranks that differ from the others, the
groups of ranks that agree, and the evidence torch reported (guard failures verbatim).

Findings come in this order (after the one of :mod:`.settle`, when a rank had more than
one file): a rank that raised; collectives that differ; recompiles on
some ranks; compile ids on some ranks only; graph breaks on some ranks; Dynamo graphs that
differ; compile statuses; cache results; versions; ranks missing from the inputs.

Here: the order, and the findings of the whole job; those of one compile id in
:mod:`.divergence_compiles`, those of what Dynamo traced in :mod:`.divergence_graphs`, a
finding's shape in :mod:`.divergence_finding`.
"""

from __future__ import annotations

from typing import Any

from ..render.rank_ranges import ranks_text
from .collectives import LEVELS, collectives_by_level
from .divergence_compiles import caches, compile_ids, statuses
from .divergence_finding import Doc, RankDocs, finding, grouped
from .divergence_graphs import dynamo_graphs, graph_breaks


def find_divergence(docs: RankDocs, world_size: int | None) -> list[dict[str, Any]]:
    if len(docs) < 2:
        return _missing_ranks(docs, world_size)
    return [
        *_errors(docs),
        *_collectives(docs),
        *compile_ids(docs),
        *graph_breaks(docs),
        *dynamo_graphs(docs),
        *statuses(docs),
        *caches(docs),
        *_environments(docs),
        *_missing_ranks(docs, world_size),
    ]


def _errors(docs: RankDocs) -> list[dict[str, Any]]:
    values = {
        rank: (
            f"{doc['error'].get('type')}: {doc['error'].get('message')}"
            if doc.get("error")
            else "no error"
        )
        for rank, doc in docs
    }
    groups = grouped(values)
    if len(groups) < 2:
        return []
    raised = [r for r, v in values.items() if v != "no error"]
    evidence = [{"rank": r, "text": values[r]} for r in raised]
    return [
        finding(
            "error",
            f"The program raised on {ranks_text(raised)}",
            groups,
            evidence,
            quiet="no error",
        )
    ]


def _collectives(docs: RankDocs) -> list[dict[str, Any]]:
    """Per rank, the collectives each compiled frame runs (its distinct sequences over its
    compiles), frames told apart by code location so frame numbering may differ across
    ranks; one finding when the ranks disagree, with the frames where they do."""
    frames: dict[tuple, dict[int, list[Doc]]] = {}
    for rank, doc in docs:
        for record in doc.get("compiles") or []:
            frame = record.get("frame") or {}
            key = (frame.get("file"), frame.get("line"), frame.get("function"))
            frames.setdefault(key, {}).setdefault(rank, []).append(record)
    per_rank: dict[int, list[str]] = {rank: [] for rank, _ in docs}
    evidence, first_ids, differing = [], [], []
    for key, records in frames.items():
        found = {
            rank: [(r["id"], collectives_by_level(r)) for r in recs]
            for rank, recs in records.items()
        }
        if not any(levels for entries in found.values() for _, levels in entries):
            continue
        level = _common_level([levels for entries in found.values() for _, levels in entries])
        shown = {}
        for rank, _ in docs:
            sequences = []
            for _, levels in found.get(rank, []):
                ops = levels.get(level) or (next(iter(levels.values())) if levels else [])
                text = " → ".join(ops) if ops else "none"
                if text not in sequences:
                    sequences.append(text)
            shown[rank] = " | ".join(sequences) if rank in found else "not compiled"
            per_rank[rank].append(f"`{key[2]}`: {shown[rank]}")
        if len(set(shown.values())) > 1:
            differing.append(f"`{key[2]}`")
            first_ids.append(min(cid for entries in found.values() for cid, _ in entries))
            evidence += [
                {
                    "rank": rank,
                    "text": f"`{key[2]}` ({level or 'graphs'}, compiles "
                    f"{', '.join(cid for cid, _ in found[rank])}): {shown[rank]}"
                    if rank in found
                    else f"`{key[2]}`: not compiled",
                }
                for rank, _ in docs
            ]
    groups = grouped({rank: "; ".join(frames_) for rank, frames_ in per_rank.items()})
    if len(groups) < 2:
        return []
    evidence.sort(key=lambda e: e["rank"])
    return [
        finding(
            "collectives",
            "the ranks run different collectives in their compiled "
            f"graphs (in {', '.join(differing)})",
            groups,
            evidence,
            compile_id=first_ids[0] if first_ids else None,
        )
    ]


def _common_level(all_levels: list[dict[str, list[str]]]) -> str | None:
    """The most downstream level every compile that has collectives shows them at."""
    with_any = [levels for levels in all_levels if levels]
    for level in LEVELS:
        if all(level in levels for levels in with_any):
            return level
    return None


def _environments(docs: RankDocs) -> list[dict[str, Any]]:
    findings = []
    for key in ("torch", "triton", "cuda", "python"):
        values = {
            r: str(doc["environment"][key])
            for r, doc in docs
            if (doc.get("environment") or {}).get(key)
        }
        groups = grouped(values)
        if len(groups) < 2:
            continue
        evidence = [{"rank": r, "text": f"{key} {v}"} for r, v in sorted(values.items())]
        findings.append(
            finding("environment", f"ranks run different {key} versions", groups, evidence)
        )
    return findings


def _missing_ranks(docs: RankDocs, world_size: int | None) -> list[dict[str, Any]]:
    """Ranks of the world size not given; without a world size (logs do not record it),
    the ranks below the highest one given that are missing (the job had at least as many)."""
    have = {r for r, _ in docs}
    if not have:
        return []
    known = world_size or max(have) + 1
    missing = [r for r in range(known) if r not in have]
    if not missing:
        return []
    groups = [{"ranks": sorted(have), "value": "given"}, {"ranks": missing, "value": "missing"}]
    of = f"of the {world_size}" if world_size else f"(below rank {max(have)}, the highest given)"
    verb = "is" if len(missing) == 1 else "are"
    return [
        finding(
            "ranks",
            f"{ranks_text(missing)} {of} {verb} not among the inputs: "
            f"{'it is' if len(missing) == 1 else 'they are'} not compared",
            groups,
            [{"rank": r, "text": "no readable document or log of this rank"} for r in missing],
            quiet="given",
        )
    ]
