"""Open ``TORCH_TRACE`` logs: the document a live capture would have built, from a file.

A log holds the same structured-trace events that ``capture()`` hears in-process, so each
record becomes the same :class:`~tcexplore.capture.events.Event` and goes through the same
:class:`~tcexplore.capture.assemble.Assembler`. What only a live capture records is marked
in ``capture.unavailable`` instead of being left silently empty. A damaged event (its line,
its envelope, or what its handler read) costs only itself: it is kept in ``capture.unread``
and counted in ``summary.unread_events``; only a file with no readable event is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..capture.assemble import Assembler
from ..capture.compile_record import new_compile_record
from ..capture.events import ENVELOPE_KEYS, Event
from ..capture.handlers.payloads import DetailBudget
from ..common.formatting import plural
from ..document import DocumentError, new_document, validate
from ..files.without_gc import without_gc
from .folder import ReadFile, Skipped, assign_ranks, folder_files
from .log_file import TraceError, TraceLog, log_rank, read_trace_log

__all__ = ["TraceError", "data_from_log", "read_trace"]

# What a TORCH_TRACE log does not record, compared with an in-process capture.
NOT_IN_TRACE = (
    (
        "compiles[].cudagraphs",
        (
            "CUDA-graph decisions (partitions, skips, recordings) are "
            "messages of torch's `cudagraphs` log, which TORCH_TRACE does "
            "not record"
        ),
    ),
    ("compiles[].perf_hints", "torch's `perf_hints` log messages are not in TORCH_TRACE"),
    (
        "compiles[].warnings",
        (
            "Python warnings raised while compiling (such as the missed "
            "CUDA-graph fast path) are not in TORCH_TRACE"
        ),
    ),
    (
        "runtime",
        ("CUDA-graph messages, perf hints and warnings logged at run time are not in TORCH_TRACE"),
    ),
    ("error", "whether the program itself raised is not in TORCH_TRACE (failed compiles are)"),
    (
        "compiles[].bytecode",
        (
            "TORCH_TRACE holds the bytecode of resume functions only (torch's "
            "*_ORIGINAL_BYTECODE / *_MODIFIED_BYTECODE artifacts); the other "
            "frames' comes from torch's bytecode hook in a live capture"
        ),
    ),
    (
        "capture.bypass_caches",
        (
            "the cache settings of the run are not in TORCH_TRACE; cache "
            "hits and misses are, per compile"
        ),
    ),
)
# Characters of graph and code text a document read from a log keeps in full (about six
# bytes of memory a character, with the graphs' nodes): past it, memory follows what is
# kept, not the log (DetailBudget).
DETAIL_LIMIT = 100_000_000
STATED = {
    "torch": "pytorch_version",
    "triton": "triton_version",
    "cuda": "cuda_version",
    "python": "python_version",
}


def read_trace(path: str | Path, *, rank: int | None = None) -> dict[str, Any]:
    """The document data of one TORCH_TRACE log (``tcexplore.load_trace`` decides it).

    ``path`` is a log file, or the folder ``TORCH_TRACE`` named: with several logs in it
    (one per rank), ``rank`` picks one, each log's rank given by the folder's rules
    (traces/folder.py); ``tcexplore.ranks(path)`` reads them all.
    """
    path = Path(path)
    if not path.is_dir():
        return data_from_log(read_trace_log(path))
    found, skipped = folder_files(path)
    logs = [p for p, kind in found if kind == "trace"]
    if len(logs) == 1 and rank is None:
        return data_from_log(read_trace_log(logs[0]))
    files = []
    for order, log in enumerate(logs):
        try:
            files.append(ReadFile(str(log), "trace", log_rank(log), order, log.stat().st_mtime))
        except TraceError as exc:
            skipped.append(Skipped(str(log), str(exc)))
    if not files:
        why = "; ".join(f"{Path(s.path).name}: {s.reason}" for s in skipped)
        raise TraceError(f"{path} holds no TORCH_TRACE log" + (f" ({why})" if why else ""))
    kept, _, _ = assign_ranks(files)
    if rank is None:
        listed = ", ".join(f"{Path(f.path).name} (rank {f.rank})" for f in kept)
        raise TraceError(
            f"{path} holds {len(kept)} logs: {listed}. Pass rank=N for one, or "
            "use tcexplore.ranks(path) / `tcexplore ranks` for all of them"
        )
    chosen = [f for f in kept if f.rank == rank]
    if not chosen:
        raise TraceError(f"{path} holds no log of rank {rank} (ranks {[f.rank for f in kept]})")
    return data_from_log(read_trace_log(chosen[0].path))


def data_from_log(log: TraceLog, keep: Iterable[str] = ()) -> dict[str, Any]:
    """The document data of a log: its events, read as they come, through the capture's
    Assembler, before any decision (the layers above decide it). A damaged
    event is skipped and kept in ``capture.unread``; the document is validated, as any
    document read from outside is, and a value the schema refuses (what a damaged event
    left in a compile) is put back to its empty value, itself an entry of ``unread``.

    A big log's graphs and code are kept in full up to :data:`DETAIL_LIMIT` characters
    (and for the compiles whose ids are in ``keep``); the other compiles keep their counts,
    guards, breaks, metrics and kernels, and ``capture.unavailable`` says which they are."""
    with without_gc():
        assembler, capture, parts = _assembled(log, DetailBudget(DETAIL_LIMIT, frozenset(keep)))
    problem = None
    for _ in range(MAX_REPAIRS):
        data = new_document(**parts, capture={**capture, "unread": assembler.unread.section()})
        try:
            validate(data)
            return data
        except DocumentError as exc:
            problem = exc
            if not _repair(parts, exc, assembler):
                break
    raise TraceError(f"{log.path}: the log's events do not read as torch writes them ({problem})")


MAX_REPAIRS = 50


def _repair(parts: dict[str, Any], exc: DocumentError, assembler: Assembler) -> bool:
    """Put back the value ``exc`` names to what an empty compile has (a graph break: drop
    it); False where it names nothing that can be put back."""
    where = exc.where
    if len(where) >= 2 and where[0] == "graph_breaks" and isinstance(where[1], int):
        parts["graph_breaks"].pop(where[1])
        assembler.unread.add("section", "graph_breaks", error=str(exc))
        return True
    if len(where) < 3 or where[0] != "compiles" or not isinstance(where[1], int):
        return False
    record, field = parts["compiles"][where[1]], str(where[2])
    empty = new_compile_record(record["id"], _EMPTY).get(field)
    if field in ("id", "frame_id", "frame_compile_id") or record.get(field) == empty:
        parts["compiles"].pop(where[1])
        assembler.unread.add("section", "compile", compile=record.get("id"), error=str(exc))
        return True
    record[field] = empty
    assembler.unread.add("section", field, compile=record["id"], error=str(exc))
    return True


_EMPTY = Event("", None, None, None, None, 0, None)


def _assembled(
    log: TraceLog, detail: DetailBudget | None = None
) -> tuple[Assembler, dict[str, Any], dict[str, Any]]:
    """The Assembler fed every readable event, the capture section, new_document's
    other arguments."""
    assembler = Assembler({}, log.unread)  # file names come with the log's own `str` events
    assembler.detail = detail
    stated: list[Event] = []  # the events that state versions
    events = 0
    for line, metadata, payload in log.records():
        try:
            event = Event.from_record(metadata, payload)
        except (TypeError, ValueError) as exc:
            log.unread.add(
                "bad_envelope", _kind(metadata), line=line, error=str(exc), read=metadata
            )
            continue
        assembler.feed(event, line)
        events += 1
        if event.kind in ("torch_version", "compilation_metrics"):
            stated.append(event)
    assembled = assembler.finish()
    environment, unstated = _stated_environment(stated)
    unavailable = [{"field": f, "reason": r} for f, r in NOT_IN_TRACE]
    unavailable += [
        {"field": f"environment.{key}", "reason": "not stated in the log"} for key in unstated
    ]
    unavailable += [
        {"field": f"environment.{key}", "reason": "the log does not say which machine wrote it"}
        for key in ("platform", "gpus")
    ]
    unavailable += _left_out(detail)
    distributed = None
    if log.rank is not None:
        distributed = {"rank": log.rank, "world_size": None, "backend": None, "source": "trace"}
        unavailable += [
            {
                "field": f"distributed.{key}",
                "reason": "TORCH_TRACE records each event's rank, not the process group",
            }
            for key in ("world_size", "backend")
        ]
    capture = {
        "source": "trace",
        "path": str(log.path),
        "compression": log.compression,
        "bypass_caches": None,
        "events": events,
        "log": log.problems(),
        "partial": log.partial,
        "unavailable": unavailable,
    }
    return (
        assembler,
        capture,
        {**assembled, "error": None, "environment": environment, "distributed": distributed},
    )


MAX_IDS = 20  # compile ids named where a big log's graphs are left out; the rest counted


def _left_out(detail: DetailBudget | None) -> list[dict[str, str]]:
    """The entry of ``capture.unavailable`` naming the compiles whose graphs and code a big
    log's document left out, if any."""
    ids = detail.left_out if detail else []
    if not ids:
        return []
    named = ", ".join(ids[:MAX_IDS]) + (
        f" and {len(ids) - MAX_IDS} more" if len(ids) > MAX_IDS else ""
    )
    return [
        {
            "field": "compiles[].graphs_and_code",
            "reason": f"the log's graphs and Inductor code are kept in full up to "
            f"{DETAIL_LIMIT // 1_000_000} M characters; {plural(len(ids), 'compile')} past "
            f"that ({named}) keep their record, guards, graph breaks, recompile reasons, "
            "metrics and kernels (what tlparse counts is counted in full), not their graphs "
            "and code (nor their nodes, mapped or unmapped): `tcexplore import LOG "
            "--compile ID` keeps one in full",
        }
    ]


def _kind(metadata: dict[str, Any]) -> str | None:
    keys = [k for k in metadata if k not in ENVELOPE_KEYS]
    return keys[0] if keys else None


def _stated_environment(events: list[Event]) -> tuple[dict[str, Any], list[str]]:
    """Versions the log itself states: the `torch_version` artifact, and the versions every
    `compilation_metrics` event carries. Returns them and the keys it does not state."""
    stated: dict[str, Any] = {}
    for event in events:
        if event.kind == "torch_version":
            try:
                version = json.loads(event.payload or "{}").get("pytorch_version")
            except (ValueError, AttributeError):
                version = None
            if version:
                stated.setdefault("torch", version)
        elif event.kind == "compilation_metrics" and isinstance(event.data, dict):
            for key, metric in STATED.items():
                if metric in event.data and key not in stated:
                    value = event.data[metric] or None  # "" (no Triton) says none
                    stated[key] = value.split()[0] if key == "python" and value else value
    environment = {
        "torch": stated.get("torch"),
        "triton": stated.get("triton"),
        "cuda": stated.get("cuda"),
        "python": stated.get("python"),
    }
    return environment, [key for key in STATED if key not in stated]
