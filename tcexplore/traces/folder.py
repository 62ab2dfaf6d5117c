"""A job's folder: which of its files are read, which rank each one is and by which rule,
and what is skipped and why.

The folder ``TORCH_TRACE`` named holds one log per rank, and whatever else came to lie
there: an empty file, a file of another tool, a rank's log copied in from another run.
Every file in it is looked at (:func:`folder_files`): an empty one, or one whose first
bytes are neither a glog line nor a JSON object, is skipped with why; the others are read
(a log, or a saved document), and one that turns out to hold no trace event is skipped too.

A read file's rank (:func:`assign_ranks`) comes from wherever it is said: its metadata
(the ``rank`` torch writes in every event's envelope once a process group is up; a saved
document's ``distributed.rank``), else its file name (``rank_<N>``, as torch names a
rank's log ``dedicated_log_torch_trace_rank_<N>[_<suffix>].log``, or tcexplore's
``out.rank<N>.json``), else the order of the files (the lowest ranks no file claims, in
name order; a saved document that says no rank is a run of no job, and is skipped).
Where two files claim one rank, one whose file name names a rank no file
claims is read as that rank (a rank's log copied under another rank's name, or a launcher
that named it otherwise); of the others one is read, by a stated rule (a document over a
log, a capture holds more; then the one modified last, the latest run), and the rest are
set aside: skipped, with the rank they claimed and why. Each read file keeps the rule that
gave its rank (``rank_from``). Nothing here imports torch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .log_file import GLOG_LINE, TraceError, open_log

HEAD_BYTES = 65_536  # what is looked at to tell a log or a document from anything else
# `rank_<N>` / `rank<N>` standing alone in a file name: dedicated_log_torch_trace_rank_3_ab.log,
# rank_3.log, out.rank3.json; not `frank3` or `rank3x`.
RANK_IN_NAME = re.compile(r"(?:^|[._-])rank_?(\d+)(?=[._-]|$)")
RULES = ("metadata", "file_name", "order")
NO_RANK = (
    "a document that does not say which rank it is (captured outside a launcher or a "
    "process group) and whose file name names none"
)


@dataclass
class Skipped:
    """A file left out: why, and (a file set aside for another of its rank) the rank it claimed."""

    path: str
    reason: str
    rank: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "reason": self.reason, "rank": self.rank}


@dataclass
class ReadFile:
    """A file (or an in-memory document: ``path`` None) that was read, and the rank it gets."""

    path: str | None
    kind: str  # "document" or "trace"
    said: int | None  # the rank its metadata says
    order: int  # its place among the inputs
    modified: float | None = None  # its modification time (st_mtime)
    rank: int | None = None
    rank_from: str | None = None  # one of RULES
    note: str | None = None  # how a conflict was resolved for it, if one was
    payload: Any = field(default=None, repr=False)  # what the reader keeps with it


@dataclass
class Conflict:
    """Files that claimed one rank, and how each was settled."""

    rank: int
    paths: list[str]
    kept: str | None  # the file read as ``rank``
    moved: dict[str, int]  # path -> the rank its file name gave it instead
    set_aside: list[str]
    rule: str | None  # why ``kept`` was chosen among the files left claiming ``rank``
    aside: list[ReadFile] = field(default_factory=list, repr=False)  # those set aside

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "paths": self.paths,
            "kept": self.kept,
            "moved": [{"path": p, "rank": r} for p, r in self.moved.items()],
            "set_aside": self.set_aside,
            "rule": self.rule,
        }


def rank_in_name(path: str | Path | None) -> int | None:
    """The N of ``…rank_<N>…`` or ``….rank<N>.json`` in a file's name (the last one)."""
    if path is None:
        return None
    found = RANK_IN_NAME.findall(Path(path).name)
    return int(found[-1]) if found else None


def folder_files(directory: Path) -> tuple[list[tuple[Path, str]], list[Skipped]]:
    """The files of ``directory`` worth reading, each with its kind ("trace" or
    "document"), by name; and those skipped, with why. Subfolders are not entered."""
    if not directory.is_dir():
        raise TraceError(f"no such folder: {directory}")
    found: list[tuple[Path, str]] = []
    skipped: list[Skipped] = []
    for path in sorted(p for p in directory.iterdir() if p.is_file()):
        kind = _kind_or_reason(path)
        if kind in ("trace", "document"):
            found.append((path, kind))
        else:
            skipped.append(Skipped(str(path), kind))
    return found, skipped


def _kind_or_reason(path: Path) -> str:
    """ "trace", "document", or why the file is not read."""
    try:
        if path.stat().st_size == 0:
            return "empty"
        with open_log(path)[1] as stream:
            head = stream.read(HEAD_BYTES)
    except TraceError as exc:
        return str(exc).removeprefix(f"{path} is ")
    except (OSError, EOFError, ValueError) as exc:
        return f"cannot be read ({type(exc).__name__}: {exc})"
    if not head.strip():
        return "holds only blank space"
    if head.lstrip().startswith(b"{"):
        return "document"
    if any(GLOG_LINE.match(line) for line in head.split(b"\n")):
        return "trace"
    return (
        "not a TORCH_TRACE log or a tcexplore document (no glog line in its first "
        f"{HEAD_BYTES // 1024} KiB)"
    )


def assign_ranks(files: list[ReadFile]) -> tuple[list[ReadFile], list[Skipped], list[Conflict]]:
    """Give every file its rank (the module's rules): the files read, by rank; those set
    aside; the conflicts settled."""
    claims: dict[int, list[ReadFile]] = {}
    unclaimed: list[ReadFile] = []
    set_aside = []
    for f in sorted(files, key=lambda f: f.order):
        named = rank_in_name(f.path)
        f.rank, f.rank_from = (f.said, "metadata") if f.said is not None else (named, "file_name")
        if f.rank is not None:
            claims.setdefault(f.rank, []).append(f)
        elif f.kind == "trace":
            unclaimed.append(f)
        else:  # a document is a whole run: one of no job is not a rank of this one
            set_aside.append(Skipped(f.path or "a document", NO_RANK))
    conflicts = [_settle(rank, claims) for rank in sorted(claims) if len(claims[rank]) > 1]
    for conflict in conflicts:
        for lost in conflict.aside:
            set_aside.append(
                Skipped(
                    lost.path or "a document",
                    f"a second file of rank {conflict.rank}: {conflict.kept} is read "
                    f"({conflict.rule})",
                    conflict.rank,
                )
            )
            lost.rank = None
    free = (r for r in range(len(files) + len(claims) + 1) if r not in claims)
    for f in unclaimed:
        f.rank, f.rank_from = next(free), "order"
    kept = [f for f in files if f.rank is not None]
    return sorted(kept, key=lambda f: f.rank), set_aside, conflicts


def _settle(rank: int, claims: dict[int, list[ReadFile]]) -> Conflict:
    """Settle the files claiming ``rank``: those whose file name gives a rank no file claims
    take it (one stays, if every one could move); of the rest one is kept by rule.
    ``claims`` is updated."""
    claimants = claims[rank]
    paths = [str(f.path or "a document") for f in claimants]
    movable = [f for f in claimants if f.rank_from == "metadata" and _free_name(f, rank, claims)]
    if len(movable) == len(claimants):
        movable = movable[1:]
    moved: dict[str, int] = {}
    for f in movable:
        named = rank_in_name(f.path)
        if named in claims:  # another file named alike moved there first
            continue
        claimants.remove(f)
        claims[named] = [f]
        f.rank, f.rank_from = named, "file_name"
        f.note = f"its metadata says rank {rank}, as {_other(claimants)}"
        moved[str(f.path)] = named
    kept, rule = _kept(claimants)
    claims[rank] = [kept]
    if len(claimants) > 1:
        kept.note = f"read as rank {rank}, one of {len(claimants)} files claiming it ({rule})"
    aside = [f for f in claimants if f is not kept]
    return Conflict(
        rank,
        paths,
        str(kept.path or "a document"),
        moved,
        [str(f.path or "a document") for f in aside],
        rule or None,
        aside,
    )


def _free_name(f: ReadFile, rank: int, claims: dict[int, list[ReadFile]]) -> bool:
    named = rank_in_name(f.path)
    return named is not None and named != rank and named not in claims


def _other(claimants: list[ReadFile]) -> str:
    """Who else says it: ``b.log does``, ``2 other files do``."""
    if len(claimants) == 1:
        return (Path(claimants[0].path).name if claimants[0].path else "a document") + " does"
    return f"{len(claimants)} other files do"


def _kept(claimants: list[ReadFile]) -> tuple[ReadFile, str]:
    """A document over a log, then the one modified last, then the first given."""
    if len(claimants) == 1:
        return claimants[0], ""
    documents = [f for f in claimants if f.kind == "document"]
    if len(documents) == 1:
        return documents[0], "a document over a log: a capture holds more than its log"
    pool = documents or claimants
    latest = max(pool, key=lambda f: (f.modified or 0.0, -f.order))
    if sum(1 for f in pool if (f.modified or 0.0) == (latest.modified or 0.0)) == 1:
        return latest, "the one modified last"
    return min(
        pool, key=lambda f: f.order
    ), "the first given: no modification time tells them apart"
