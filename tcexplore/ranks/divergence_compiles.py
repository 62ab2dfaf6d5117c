"""The divergence findings of one compile id: on some ranks only, recompiled on some, ending
differently, hitting the caches differently."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..render.rank_ranges import ranks_text
from .divergence_finding import Doc, RankDocs, by_compile_id, finding, function_name, grouped


def compile_ids(docs: RankDocs) -> list[dict[str, Any]]:
    """Recompiles on some ranks, then compiles on some ranks only (one finding per set)."""
    ranks = [r for r, _ in docs]
    findings = []
    only_on: dict[tuple[int, ...], list[tuple[str, dict[int, Doc]]]] = defaultdict(list)
    for cid, per_rank in by_compile_id(docs).items():
        present = sorted(per_rank)
        recompiled = {r: _guards(rec) for r, rec in per_rank.items() if _guards(rec)}
        if len(present) < len(ranks) and not recompiled:
            only_on[tuple(present)].append((cid, per_rank))
        elif recompiled:
            recompile = _recompile(cid, per_rank, recompiled, ranks)
            if recompile:
                findings.append(recompile)
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
                "text": f"compile {cid} `{function_name(rec)}`: {rec.get('status')}"
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
            finding(
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
    groups = grouped(values)
    if len(groups) < 2:
        return None
    function = function_name(next(iter(per_rank.values())))
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
    return finding("recompile", title, groups, evidence, compile_id=cid, quiet=f"no compile {cid}")


def _guards(record: Doc) -> list[str]:
    return [reason["guard"] for group in record.get("recompile_reasons") or [] for reason in group]


def statuses(docs: RankDocs) -> list[dict[str, Any]]:
    findings = []
    for cid, per_rank in by_compile_id(docs).items():
        values = {r: str(rec.get("status")) for r, rec in per_rank.items()}
        groups = grouped(values)
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
            finding(
                "status",
                f"compile {cid} (`{function_name(per_rank[min(per_rank)])}`)"
                " ends differently across ranks",
                groups,
                evidence,
                compile_id=cid,
                quiet="ok",
            )
        )
    return findings


def caches(docs: RankDocs) -> list[dict[str, Any]]:
    findings = []
    for cid, per_rank in by_compile_id(docs).items():
        values = {
            r: ", ".join(f"{c['cache']} {c['result']}" for c in rec.get("cache") or [])
            or "no cache lookups"
            for r, rec in per_rank.items()
        }
        groups = grouped(values)
        if len(groups) < 2:
            continue
        evidence = [{"rank": r, "text": v} for r, v in sorted(values.items())]
        findings.append(
            finding(
                "cache",
                f"compile {cid} hits and misses the caches differently across ranks",
                groups,
                evidence,
                compile_id=cid,
            )
        )
    return findings
