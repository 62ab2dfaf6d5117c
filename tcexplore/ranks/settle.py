"""Every input of a job given its rank, and what the job document says of its files.

The inputs are read first, each digest saying the rank its document states (if any); then
their ranks are settled once, by the folder's rules (traces/folder.py: metadata, else the
file name, else the order of the files; two files of one rank: the file name's rank where
it is free, else one read by a stated rule and the others set aside). Here that is applied
to the digests (a rank document written from a log is renamed ``<base>.rank<N>.json``, one
set aside is removed) and written into the job document: each entry's ``rank_from`` and
``rank_note``, and the ``inputs`` section (the files looked at, those skipped with why, the
conflicts settled, and the one line the command line prints). The finding that opens the
divergence list when a rank had more than one file is made here too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..common.formatting import plural
from ..document import DocumentError
from ..render.rank_ranges import ranks_text
from ..traces.folder import ReadFile, Skipped, assign_ranks
from .files import per_rank_path
from .inputs import Inputs

SHOWN = 3  # files named in the one line; the rest are counted


def settle(
    inputs: Inputs, digests: list[dict[str, Any]]
) -> tuple[list[ReadFile], list[ReadFile], dict[str, Any]]:
    """The inputs read, by rank (each digest in ``.payload``), those set aside, and the
    ``inputs`` section. ``digests[i]`` is ``inputs.sources[i]``'s: ``{"said": rank or None,
    ...}`` or ``{"skipped": reason}``."""
    skipped = list(inputs.skipped)
    files = []
    for source, digest in zip(inputs.sources, digests):
        if "skipped" in digest:
            skipped.append(Skipped(source.path or "a document", digest["skipped"]))
            continue
        modified = Path(source.path).stat().st_mtime if source.path else None
        files.append(
            ReadFile(
                source.path, source.kind, digest["said"], source.order, modified, payload=digest
            )
        )
    if not files:
        why = "; ".join(f"{Path(s.path).name}: {s.reason}" for s in skipped)
        raise DocumentError(f"no readable TORCH_TRACE log or rank document was given ({why})")
    kept, set_aside, conflicts = assign_ranks(files)
    if not kept:
        why = "; ".join(f"{Path(s.path).name}: {s.reason}" for s in set_aside)
        raise DocumentError(f"no input says which rank it is ({why})")
    section = {
        "files": len(inputs.sources) + len(inputs.skipped),
        "read": len(kept),
        "skipped": [s.to_dict() for s in skipped + set_aside],
        "conflicts": [c.to_dict() for c in conflicts],
    }
    section["line"] = inputs_line(section, kept)
    return kept, [f for f in files if f.rank is None], section


def ranked_digests(
    kept: list[ReadFile], set_aside: list[ReadFile], documents_base: str | None
) -> list[dict[str, Any]]:
    """The digests of the ranks read, each with its rank, rule and note, a rank document
    written from a log renamed ``<base>.rank<N>.json``; those set aside removed."""
    for lost in set_aside:
        if lost.kind == "trace":
            Path(lost.payload["document_path"]).unlink(missing_ok=True)
    for f in kept:
        digest = f.payload
        digest["rank"] = f.rank
        digest["entry"].update(rank=f.rank, rank_from=f.rank_from, rank_note=f.note)
        if f.kind == "trace" and documents_base is not None:
            target = per_rank_path(documents_base, f.rank)
            os.replace(digest["document_path"], target)
            digest["document_path"] = digest["entry"]["document_path"] = str(target)
    return [f.payload for f in kept]


def _names(items: list[dict[str, Any]]) -> str:
    named = [f"{Path(s['path']).name} ({s['reason']})" for s in items[:SHOWN]]
    more = len(items) - SHOWN
    return ", ".join(named) + (f" and {more} more" if more > 0 else "")


def inputs_line(section: dict[str, Any], kept: list[ReadFile]) -> str | None:
    """One line of what was skipped or settled; None where every input was read as the
    rank its metadata says."""
    parts = []
    for rule, one, many in (
        ("file_name", "from its file name", "from their file names"),
        ("order", "from the order of the files", "from the order of the files"),
    ):
        ranks = [f.rank for f in kept if f.rank_from == rule]
        if ranks:
            parts.append(f"{ranks_text(ranks)} {one if len(ranks) == 1 else many}")
    for conflict in section["conflicts"]:
        parts.append(conflict_text(conflict))
    stray = [s for s in section["skipped"] if s["rank"] is None]
    if stray:
        parts.append(f"skipped {len(stray)}: {_names(stray)}")
    if not parts:
        return None
    read = [f.rank for f in kept]
    return (
        f"read {section['read']} of {plural(section['files'], 'file')} as "
        f"{ranks_text(read)}; " + "; ".join(parts)
    )


def conflict_text(conflict: dict[str, Any]) -> str:
    """``rank 0 had 2 files: b.log read (the one modified last), a.log set aside``."""
    rank = conflict["rank"]
    said = [
        f"{Path(m['path']).name} read as rank {m['rank']}, as its file name says"
        for m in conflict["moved"]
    ]
    if conflict["set_aside"]:
        said.append(
            f"{Path(conflict['kept']).name} read ({conflict['rule']}), "
            + ", ".join(Path(p).name for p in conflict["set_aside"])
            + " set aside"
        )
    return f"rank {rank} had {len(conflict['paths'])} files: " + "; ".join(said)


def inputs_finding(section: dict[str, Any] | None, ranks: list[int]) -> list[dict[str, Any]]:
    """The divergence finding of the ranks that had more than one file, if any did."""
    conflicts = (section or {}).get("conflicts") or []
    if not conflicts:
        return []
    odd = sorted(
        {c["rank"] for c in conflicts} | {m["rank"] for c in conflicts for m in c["moved"]}
    )
    rest = [r for r in ranks if r not in odd]
    groups = [{"ranks": odd, "value": "more than one file claimed the rank"}]
    if rest:
        groups.append({"ranks": rest, "value": "one file"})
    evidence = [{"rank": c["rank"], "text": conflict_text(c)} for c in conflicts]
    return [
        {
            "kind": "inputs",
            "ranks": odd,
            "compile_id": None,
            "title": "The inputs held more than one file for "
            + ranks_text(sorted({c["rank"] for c in conflicts}))
            + ": each rank is read from one of them (the evidence says which)",
            "groups": groups,
            "evidence": evidence,
        }
    ]
