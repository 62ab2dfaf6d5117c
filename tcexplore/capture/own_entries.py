"""Recompile reasons that name only cache entries tcexplore compiled for itself.

explore() and the first-divergence search compile with backends of their own
(``_torch_compat.isolated_compile``). On torch >= 2.13 each has its own recompile region,
which the user's later compiles never look into. torch 2.11/2.12 has none: a later compile
of the same code (the user's ``forward`` after a search) lists those entries' failed checks
(a backend mismatch) and counts itself a recompile. Such reasons are not the user's: they
are left out of a live capture's document, and a compile left with none is no recompile. A
reason naming one of the document's own compiles stays.
"""

from __future__ import annotations

from typing import Any

from .. import _torch_compat


def drop_own_entries(compiles: list[dict[str, Any]]) -> None:
    """Removes, in place, the reasons that name tcexplore's own entries of earlier compiles."""
    if not any(record["recompile_reasons"] for record in compiles):
        return
    own = _torch_compat.own_entry_ids() - {record["id"] for record in compiles}
    if not own:
        return
    for record in compiles:
        groups = [
            [r for r in group if r.get("failed_compile_id") not in own]
            for group in record["recompile_reasons"]
        ]
        record["recompile_reasons"] = [group for group in groups if group]
