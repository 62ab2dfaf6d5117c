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
RULE_TEXT = {
    "metadata": "from its metadata",
    "file_name": "from its file name",
    "order": "from the order of the files (neither its metadata nor its name says one)",
}


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
        note = RULE_TEXT[f.rank_from] + (f": {f.note}" if f.note else "")
        digest["entry"].update(rank=f.rank, rank_from=f.rank_from, rank_note=note)
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
    """``2 files claim rank 0: b.log read (the one modified last), 1 set aside``."""
    rank, moved = conflict["rank"], conflict["moved"]
    said = []
    if moved:
        ranks = ranks_text(m["rank"] for m in moved)
        said.append(
            f"{len(moved)} read as {ranks}, as {'its file name says' if len(moved) == 1 else 'their file names say'}"
        )
    if conflict["set_aside"]:
        said.append(
            f"{Path(conflict['kept']).name} read ({conflict['rule']}), "
            f"{len(conflict['set_aside'])} set aside"
        )
    return f"{len(conflict['paths'])} files claim rank {rank}: " + "; ".join(said)


def _evidence(conflict: dict[str, Any]) -> list[dict[str, Any]]:
    """One line per file that claimed the rank: how it is read, or that it is not."""
    rank, kept = conflict["rank"], conflict["kept"]
    why = f" ({conflict['rule']})" if conflict["set_aside"] else ""
    lines = [{"rank": rank, "text": f"{kept}: read as rank {rank}{why}"}]
    lines += [
        {
            "rank": m["rank"],
            "text": f"{m['path']}: its metadata says rank {rank}; read as rank {m['rank']}, as its file name says",
        }
        for m in conflict["moved"]
    ]
    lines += [
        {"rank": rank, "text": f"{path}: claims rank {rank} too; not read"}
        for path in conflict["set_aside"]
    ]
    return lines


def inputs_finding(section: dict[str, Any] | None, ranks: list[int]) -> list[dict[str, Any]]:
    """The divergence finding of the ranks that had more than one file, if any did."""
    conflicts = (section or {}).get("conflicts") or []
    if not conflicts:
        return []
    odd = sorted(
        {c["rank"] for c in conflicts} | {m["rank"] for c in conflicts for m in c["moved"]}
    )
    rest = [r for r in ranks if r not in odd]
    groups = [
        {
            "ranks": sorted({c["rank"]} | {m["rank"] for m in c["moved"]}),
            "value": f"read from one of the {len(c['paths'])} files that claimed rank {c['rank']}",
        }
        for c in conflicts
    ]
    if rest:
        groups.append({"ranks": rest, "value": "read from the only file that claimed it"})
    titles = [conflict_text(c) for c in conflicts[:SHOWN]]
    more = len(conflicts) - SHOWN
    return [
        {
            "kind": "inputs",
            "ranks": odd,
            "compile_id": None,
            "title": "; ".join(titles) + (f"; and {more} more ranks" if more > 0 else ""),
            "groups": groups,
            "evidence": [line for c in conflicts for line in _evidence(c)],
        }
    ]
