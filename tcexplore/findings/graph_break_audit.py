"""The graph-break audit: a document's graph breaks grouped by the line that broke.

torch writes one ``dynamo_graph_break_reason`` event per compile that reaches a break: the
frame whose code holds the line, every caller Dynamo was tracing when it got there (each
compiles again as its own frame after the break), and every recompile of all of them. The
document keeps those events as they came (``graph_breaks``, tlparse's count); a person
fixes lines, so the audit groups the events by the user line that broke (a *site*), counts
them there, and says which frames and compiles they came from. The counts of all sites add
up to ``summary["graph_breaks"]``.

Each site carries torch's own words, as capture split them (capture/parsers/graph_breaks.py):
the specific message (the line after the generic "Encountered graph break when attempting
to trace ..."), the explanation, hints and link, and its developer context; the user stacks
that reached it, with library frames (the standard library, installed packages, torch,
tcexplore: the document's ``library_files``, decided at capture) marked so that views fold
them; and the resume functions Dynamo made to go on after the break, with their compiles.

Plain data in, plain data out: no torch import, usable on any saved document.
"""

from __future__ import annotations

from typing import Any

from ..capture.resume_links import resume_name
from ..common.relabel import relabel
from .user_terms import in_user_words

Data = dict[str, Any]


def library_marks(data: Data) -> frozenset[str]:
    """``library_files``: the files the capture marked as library code (see
    capture/library_files.py). A document from before the mark has none: no frame is
    folded, so nothing of the user's is hidden on a guess."""
    files = data.get("library_files")
    return (
        frozenset(f for f in files if isinstance(f, str))
        if isinstance(files, list)
        else frozenset()
    )


def source_labels(data: Data) -> dict[str, str]:
    """``explore.source_labels``: file name -> "cell [5]" for notebook cells."""
    explore = data.get("explore")
    labels = explore.get("source_labels") if isinstance(explore, dict) else None
    return {k: v for k, v in (labels or {}).items() if isinstance(v, str)}


def where(file: Any, line: Any, labels: dict[str, str]) -> str:
    """``cell [5], line 3`` for a labelled file, else ``path:line``."""
    label = labels.get(file) if isinstance(file, str) else None
    if label:
        return label if line is None else f"{label}, line {line}"
    return f"{file or '?'}" + ("" if line is None else f":{line}")


def _frame(loc: Any, labels: dict[str, str], library: frozenset[str]) -> Data:
    loc = loc if isinstance(loc, dict) else {}
    return {
        "file": loc.get("file"),
        "line": loc.get("line"),
        "function": loc.get("function"),
        "code": loc.get("code"),
        "where": where(loc.get("file"), loc.get("line"), labels),
        "library": loc.get("file") in library,
    }


def _reasons(events: list[Data], labels: dict[str, str]) -> list[Data]:
    grouped: dict[str, Data] = {}
    for brk in events:
        message = brk.get("message") or ""
        entry = grouped.setdefault(
            message,
            {
                "message": message,
                "count": 0,
                "explanation": brk.get("explanation"),
                "hints": list(brk.get("hints") or []),
                "link": brk.get("link"),
                "generic": brk.get("generic"),
                "details": brk.get("details"),
                "developer_context": brk.get("developer_context"),
                "skipped_frame": brk.get("skipped_frame"),
                "skipped_frames": 0,
            },
        )
        entry["count"] += 1
        entry["skipped_frame"] = entry["skipped_frame"] or brk.get("skipped_frame")
        entry["skipped_frames"] += bool(brk.get("skipped_frame"))
        entry["details"] = entry["details"] or brk.get("details")
        entry["developer_context"] = entry["developer_context"] or brk.get("developer_context")
    for entry in grouped.values():
        entry["context"] = _context(entry, labels)
    return sorted(grouped.values(), key=lambda r: -r["count"])


def _context(reason: Data, labels: dict[str, str]) -> str | None:
    """torch's developer context of a reason as the views show it, in one text: its generic
    line, the debug context, the details, labelled file names as their labels."""
    dev = reason.get("developer_context")
    parts = [
        reason.get("generic"),
        dev and f"Developer debug context: {dev}",
        reason.get("details"),
    ]
    text = "\n".join(p for p in parts if p)
    return relabel(text, labels) if text else None


def _paths(events: list[Data], labels: dict[str, str], library: frozenset[str]) -> list[Data]:
    """The distinct user call paths that reached the site, most frequent first; each keeps
    the whole stack of its first event, library frames marked."""
    paths: dict[tuple, Data] = {}
    for brk in events:
        stack = [_frame(loc, labels, library) for loc in brk.get("user_stack") or []]
        key = tuple((f["file"], f["line"], f["function"]) for f in stack if not f["library"])
        entry = paths.setdefault(key, {"count": 0, "stack": stack})
        entry["count"] += 1
    return sorted(paths.values(), key=lambda p: -p["count"])


def _site(
    key: tuple,
    events: list[tuple[int, Data]],
    data: Data,
    labels: dict[str, str],
    library: frozenset[str],
) -> Data:
    file, line = key
    compiles = {c.get("id"): c for c in data.get("compiles") or [] if isinstance(c, dict)}
    breaks = [brk for _, brk in events]
    innermost = next(
        (
            f
            for brk in breaks
            for f in reversed(brk.get("user_stack") or [])
            if isinstance(f, dict) and f.get("file") == file and f.get("line") == line
        ),
        {},
    )
    frames: dict[tuple, Data] = {}  # by function: torch makes one per resume point
    resumes: dict[str, list[str]] = {}
    for brk in breaks:
        cid = brk.get("compile_id")
        compile_ = compiles.get(cid) or {}
        frame = compile_.get("frame") if isinstance(compile_.get("frame"), dict) else {}
        entry = frames.setdefault(
            (frame.get("function"), frame.get("file")),
            {
                "function": frame.get("function"),
                "file": frame.get("file"),
                "line": frame.get("line"),
                "count": 0,
                "compiles": [],
            },
        )
        entry["count"] += 1
        if cid not in entry["compiles"]:
            entry["compiles"].append(cid)
        name = resume_name(brk, frame)
        if name and name not in resumes:
            resumes[name] = [
                c["id"]
                for c in compiles.values()
                if isinstance(c.get("frame"), dict)
                and c["frame"].get("function") == name
                and c["frame"].get("file") == frame.get("file")
            ]
    site = {
        "file": file,
        "line": line,
        "where": where(file, line, labels),
        "function": innermost.get("function"),
        "code": innermost.get("code"),
        "library": file in library,
        "count": len(breaks),
        "events": [i for i, _ in events],
        "compiles": [brk.get("compile_id") for brk in breaks],
        "frames": list(frames.values()),
        "reasons": _reasons(breaks, labels),
        "paths": _paths(breaks, labels, library),
        "resume_functions": [{"name": n, "compiles": ids} for n, ids in resumes.items() if ids],
    }
    site["count_note"] = count_note(site)
    return site


def graph_break_audit(data: Data) -> list[Data]:
    """The document's graph breaks grouped by site (file and line), ranked by what to act on
    first: the most break events, then the earliest. See the module docstring. Stored in
    the document as ``graph_break_sites`` when it is built (findings.decide); the views
    draw that."""
    labels = source_labels(data)
    library = library_marks(data)
    groups: dict[tuple, list[tuple[int, Data]]] = {}
    for index, brk in enumerate(data.get("graph_breaks") or []):
        if isinstance(brk, dict):
            groups.setdefault((brk.get("file"), brk.get("line")), []).append((index, brk))
    sites = [_site(key, events, data, labels, library) for key, events in groups.items()]
    return sorted(sites, key=lambda s: (-s["count"], s["events"][0]))


def count_note(site: Data) -> str:
    """Why a site counts what it counts, in the words the views show (the site's
    ``count_note``)."""
    frames = site["frames"]
    if site["count"] == 1:
        return "1 break event."
    # a resume function Dynamo generated, in the user's words
    parts = ", ".join(f"{in_user_words(f.get('function') or '?')} ×{f['count']}" for f in frames)
    return (
        f"{site['count']} break events: torch reports a break once per compile that "
        f"reaches its line, recompiles included — here {len(frames)} "
        f"frame{'' if len(frames) == 1 else 's'} ({parts})."
    )


def graph_break_lines(sites: list[dict], shown: int = 5) -> list[str]:
    """The graph-break audit as the run's summary prints it: each site (the line that broke)
    with its count, torch's reason, first hint and link, and one path that reached it."""
    if not sites:
        return []
    total = sum(site["count"] for site in sites)
    lines = [
        (
            f"tcexplore: graph breaks by site ({total} break events at {len(sites)} "
            f"site{'' if len(sites) == 1 else 's'}; torch reports one per compile reaching "
            "a line, recompiles included):"
        )
    ]
    for rank, site in enumerate(sites[:shown], start=1):
        reason = site["reasons"][0] if site["reasons"] else {}
        function = f" in {site['function']}" if site.get("function") else ""
        lines.append(
            f"  #{rank} {site['count']}x {site['where']}{function}: {reason.get('message') or '?'}"
        )
        for hint in (reason.get("hints") or [])[:1]:
            lines.append(f"      hint: {hint}")
        if reason.get("link"):
            lines.append(f"      more: {reason['link']}")
        path = [f for f in site["paths"][0]["stack"] if not f["library"]] if site["paths"] else []
        if len(path) > 1:
            others = len(site["paths"]) - 1
            steps = (
                f"{f['function']} ("
                + (f"line {f['line']}" if f["file"] == site["file"] else f["where"])
                + ")"
                for f in path[:-1]
            )
            lines.append(
                "      via: "
                + " -> ".join(steps)
                + (f" (+{others} other call path{'' if others == 1 else 's'})" if others else "")
            )
    if len(sites) > shown:
        lines.append(f"  ... {len(sites) - shown} more sites in the report (--html)")
    return lines
