"""Where the ranks of one job differ, from their documents alone.

Every rank of a data-parallel job should compile the same frames, with the same graphs,
and run the same collectives in the same order; where they do not, the job is slow at
best and hangs at worst. Each finding names the ranks that differ from the others, the
groups of ranks that agree, and the evidence torch reported (guard failures verbatim).

Findings come in this order (after the one of :mod:`.settle`, when a rank had more than
one file): a rank that raised; collectives that differ; recompiles on
some ranks; compile ids on some ranks only; graph breaks on some ranks; Dynamo graphs that
differ; compile statuses; cache results; versions; ranks missing from the inputs.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from ..render.rank_ranges import ranks_text
from .collectives import LEVELS, collectives_by_level

MAX_EVIDENCE = 20  # lines of evidence per finding; the rest are counted

Doc = dict[str, Any]
RankDocs = list[tuple[int, Doc]]


def find_divergence(docs: RankDocs, world_size: int | None) -> list[dict[str, Any]]:
    if len(docs) < 2:
        return _missing_ranks(docs, world_size)
    return [
        *_errors(docs),
        *_collectives(docs),
        *_compile_ids(docs),
        *_graph_breaks(docs),
        *_graphs(docs),
        *_statuses(docs),
        *_caches(docs),
        *_environments(docs),
        *_missing_ranks(docs, world_size),
    ]


# ---------------------------------------------------------------------------- helpers


def _grouped(values: dict[int, str]) -> list[dict[str, Any]]:
    groups: dict[str, list[int]] = defaultdict(list)
    for rank, value in sorted(values.items()):
        groups[value].append(rank)
    return [{"ranks": ranks, "value": value} for value, ranks in groups.items()]


def _odd_ranks(groups: list[dict[str, Any]], quiet: str | None = None) -> list[int]:
    """The ranks outside the reference group: the biggest one; on a tie the ``quiet`` one
    (where nothing happened), else the one holding the lowest rank."""
    reference = max(groups, key=lambda g: (len(g["ranks"]), g["value"] == quiet, -min(g["ranks"])))
    return sorted(r for g in groups if g is not reference for r in g["ranks"])


def _finding(
    kind: str,
    title: str,
    groups: list[dict[str, Any]],
    evidence: list[dict[str, Any]],
    *,
    compile_id: str | None = None,
    quiet: str | None = None,
) -> dict[str, Any]:
    if len(evidence) > MAX_EVIDENCE:
        evidence = evidence[:MAX_EVIDENCE] + [
            {"rank": None, "text": f"… {len(evidence) - MAX_EVIDENCE} more (truncated)"}
        ]
    return {
        "kind": kind,
        "ranks": _odd_ranks(groups, quiet),
        "compile_id": compile_id,
        "title": title,
        "groups": groups,
        "evidence": evidence,
    }


def _function(record: Doc | None) -> str:
    frame = (record or {}).get("frame") or {}
    return str(frame.get("function") or "?")


def _by_compile_id(docs: RankDocs) -> dict[str, dict[int, Doc]]:
    """compile id -> rank -> record, ids in the order they first appear."""
    found: dict[str, dict[int, Doc]] = {}
    for rank, doc in docs:
        for record in doc.get("compiles") or []:
            found.setdefault(record["id"], {})[rank] = record
    return found


def _guards(record: Doc) -> list[str]:
    return [reason["guard"] for group in record.get("recompile_reasons") or [] for reason in group]


# ---------------------------------------------------------------------------- findings


def _errors(docs: RankDocs) -> list[dict[str, Any]]:
    values = {
        rank: (
            f"{doc['error'].get('type')}: {doc['error'].get('message')}"
            if doc.get("error")
            else "no error"
        )
        for rank, doc in docs
    }
    groups = _grouped(values)
    if len(groups) < 2:
        return []
    raised = [r for r, v in values.items() if v != "no error"]
    evidence = [{"rank": r, "text": values[r]} for r in raised]
    return [
        _finding(
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
    groups = _grouped({rank: "; ".join(frames_) for rank, frames_ in per_rank.items()})
    if len(groups) < 2:
        return []
    evidence.sort(key=lambda e: e["rank"])
    return [
        _finding(
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


def _compile_ids(docs: RankDocs) -> list[dict[str, Any]]:
    ranks = [r for r, _ in docs]
    findings = []
    only_on: dict[tuple[int, ...], list[tuple[str, dict[int, Doc]]]] = defaultdict(list)
    for cid, per_rank in _by_compile_id(docs).items():
        present = sorted(per_rank)
        recompiled = {r: _guards(rec) for r, rec in per_rank.items() if _guards(rec)}
        if len(present) < len(ranks) and not recompiled:
            only_on[tuple(present)].append((cid, per_rank))
        elif recompiled:
            finding = _recompile(cid, per_rank, recompiled, ranks)
            if finding:
                findings.append(finding)
    for present, compiles in only_on.items():
        absent = [r for r in ranks if r not in present]
        ids = ", ".join(cid for cid, _ in compiles)
        groups = [
            {"ranks": list(present), "value": f"compiled {ids}"},
            {"ranks": absent, "value": "not compiled"},
        ]
        evidence = [
            {
                "rank": r,
                "text": f"compile {cid} `{_function(rec)}`: {rec.get('status')}"
                + (
                    f", {len(rec['dynamo_graph']['nodes'])} graph nodes"
                    if rec.get("dynamo_graph")
                    else ""
                ),
            }
            for cid, per_rank in compiles
            for r, rec in sorted(per_rank.items())
        ]
        word = "compile" if len(compiles) == 1 else "compiles"
        findings.append(
            _finding(
                "compile_ids",
                f"{word} {ids} on {ranks_text(present)} only, not on {ranks_text(absent)}",
                groups,
                evidence,
                compile_id=compiles[0][0],
                quiet="not compiled",
            )
        )
    return findings


def _recompile(
    cid: str, per_rank: dict[int, Doc], recompiled: dict[int, list[str]], ranks: list[int]
) -> dict[str, Any] | None:
    values = {
        r: (
            "recompiled: " + "; ".join(recompiled[r])
            if r in recompiled
            else f"compile {cid} is no recompile"
            if r in per_rank
            else f"no compile {cid}"
        )
        for r in ranks
    }
    groups = _grouped(values)
    if len(groups) < 2:
        return None
    function = _function(next(iter(per_rank.values())))
    evidence = []
    for r in sorted(recompiled):
        for group in per_rank[r].get("recompile_reasons") or []:
            for reason in group:
                evidence.append(
                    {
                        "rank": r,
                        "text": f"{reason['guard']} (guard of compile "
                        f"{reason.get('failed_compile_id') or '?'})",
                    }
                )
    others = [r for r in ranks if r not in recompiled]
    title = f"{ranks_text(recompiled)} recompiled `{function}` (compile {cid})"
    title += f"; {ranks_text(others)} did not" if others else " for different reasons"
    return _finding("recompile", title, groups, evidence, compile_id=cid, quiet=f"no compile {cid}")


def _graph_breaks(docs: RankDocs) -> list[dict[str, Any]]:
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
            _finding(
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


def _graphs(docs: RankDocs) -> list[dict[str, Any]]:
    findings = []
    for cid, per_rank in _by_compile_id(docs).items():
        graphs = {
            r: rec["dynamo_graph"]["nodes"]
            for r, rec in per_rank.items()
            if rec.get("dynamo_graph")
        }
        if len(graphs) < 2:
            continue
        signatures = {r: [_node_signature(n) for n in nodes] for r, nodes in graphs.items()}
        values = {r: "\n".join(sig) for r, sig in signatures.items()}
        groups = _grouped(values)
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
            _finding(
                "graph",
                f"the Dynamo graph of compile {cid} (`{_function(per_rank[reference])}`) "
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


def _statuses(docs: RankDocs) -> list[dict[str, Any]]:
    findings = []
    for cid, per_rank in _by_compile_id(docs).items():
        values = {r: str(rec.get("status")) for r, rec in per_rank.items()}
        groups = _grouped(values)
        if len(groups) < 2:
            continue
        evidence = [
            {
                "rank": r,
                "text": f"{rec.get('status')}"
                + (
                    f": {rec['error'].get('type')}: {rec['error'].get('message')}"
                    if rec.get("error")
                    else ""
                ),
            }
            for r, rec in sorted(per_rank.items())
        ]
        findings.append(
            _finding(
                "status",
                f"compile {cid} (`{_function(per_rank[min(per_rank)])}`)"
                " ends differently across ranks",
                groups,
                evidence,
                compile_id=cid,
                quiet="ok",
            )
        )
    return findings


def _caches(docs: RankDocs) -> list[dict[str, Any]]:
    findings = []
    for cid, per_rank in _by_compile_id(docs).items():
        values = {
            r: ", ".join(f"{c['cache']} {c['result']}" for c in rec.get("cache") or [])
            or "no cache lookups"
            for r, rec in per_rank.items()
        }
        groups = _grouped(values)
        if len(groups) < 2:
            continue
        evidence = [{"rank": r, "text": v} for r, v in sorted(values.items())]
        findings.append(
            _finding(
                "cache",
                f"compile {cid} hits and misses the caches differently across ranks",
                groups,
                evidence,
                compile_id=cid,
            )
        )
    return findings


def _environments(docs: RankDocs) -> list[dict[str, Any]]:
    findings = []
    for key in ("torch", "triton", "cuda", "python"):
        values = {
            r: str(doc["environment"][key])
            for r, doc in docs
            if (doc.get("environment") or {}).get(key)
        }
        groups = _grouped(values)
        if len(groups) < 2:
            continue
        evidence = [{"rank": r, "text": f"{key} {v}"} for r, v in sorted(values.items())]
        findings.append(
            _finding("environment", f"ranks run different {key} versions", groups, evidence)
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
        _finding(
            "ranks",
            f"{ranks_text(missing)} {of} {verb} not among the inputs: "
            f"{'it is' if len(missing) == 1 else 'they are'} not compared",
            groups,
            [{"rank": r, "text": "no readable document or log of this rank"} for r in missing],
            quiet="given",
        )
    ]
