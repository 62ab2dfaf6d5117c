"""Recompile reasons that name only cache entries compiled outside explore()'s capture.

explore() compiles with a backend of its own, so the user's earlier entries for the same
code can never serve its calls; Dynamo still lists their failed checks (a BACKEND_MATCH
failure, their guards) when it compiles, and on torch < 2.13 (no isolated recompile
regions) logs explore's first compile as a recompile of them. Those are kept out, so a
warm process counts as a fresh one; a reason naming any of the capture's own entries stays,
with only those entries.
"""

from __future__ import annotations

from ..decided import Document
from ..document import compute_summary


def without_foreign_entries(document: Document) -> Document:
    data = document.data
    own = {c["id"] for c in data["compiles"]}
    changed = False
    compiles = []
    for record in data["compiles"]:
        reasons = []
        for group in record["recompile_reasons"]:
            kept = [r for r in group if r.get("failed_compile_id") in own | {None}]
            changed |= len(kept) != len(group)
            if kept:
                reasons.append(kept)
        compiles.append({**record, "recompile_reasons": reasons})
    if not changed:
        return document
    return Document(
        {
            **data,
            "compiles": compiles,
            "summary": {**data["summary"], **compute_summary(compiles, data["graph_breaks"])},
        },
        check=False,
    )
