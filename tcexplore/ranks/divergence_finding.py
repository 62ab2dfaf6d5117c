"""A divergence finding: the ranks grouped by what they show, those outside the biggest group
named, the evidence bounded; and the lookups every kind of finding makes in rank documents."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

MAX_EVIDENCE = 20  # lines of evidence per finding; the rest are counted

Doc = dict[str, Any]
RankDocs = list[tuple[int, Doc]]


def grouped(values: dict[int, str]) -> list[dict[str, Any]]:
    """The ranks grouped by value, groups in the order of their lowest rank."""
    groups: dict[str, list[int]] = defaultdict(list)
    for rank, value in sorted(values.items()):
        groups[value].append(rank)
    return [{"ranks": ranks, "value": value} for value, ranks in groups.items()]


def _odd_ranks(groups: list[dict[str, Any]], quiet: str | None = None) -> list[int]:
    """The ranks outside the reference group: the biggest one; on a tie the ``quiet`` one
    (where nothing happened), else the one holding the lowest rank."""
    reference = max(groups, key=lambda g: (len(g["ranks"]), g["value"] == quiet, -min(g["ranks"])))
    return sorted(r for g in groups if g is not reference for r in g["ranks"])


def finding(
    kind: str,
    title: str,
    groups: list[dict[str, Any]],
    evidence: list[dict[str, Any]],
    *,
    compile_id: str | None = None,
    quiet: str | None = None,
) -> dict[str, Any]:
    """One finding; its evidence past ``MAX_EVIDENCE`` lines counted in one more."""
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


def function_name(record: Doc | None) -> str:
    """The function of a compile record's frame, else "?"."""
    frame = (record or {}).get("frame") or {}
    return str(frame.get("function") or "?")


def by_compile_id(docs: RankDocs) -> dict[str, dict[int, Doc]]:
    """compile id -> rank -> record, ids in the order they first appear."""
    found: dict[str, dict[int, Doc]] = {}
    for rank, doc in docs:
        for record in doc.get("compiles") or []:
            found.setdefault(record["id"], {})[rank] = record
    return found
