"""Read one ``TORCH_TRACE`` log file into the records torch's trace handler wrote.

The format is what ``TorchLogsFormatter(trace=True)`` in torch/_logging/_internal.py
writes, and what tlparse reads: one glog-style line per event,

    V1122 15:27:26.950000 2116 torch/_dynamo/utils.py:2126] {"chromium_event": {}, ...}

whose JSON object is the event's metadata envelope; when it has ``has_payload`` (the
payload's md5), the payload follows, each of its lines prefixed by a tab. Lines that are
not glog lines are counted and skipped, as tlparse does. A damaged event is an entry of
:class:`~tcexplore.common.contained.Unread` and reading goes on: one whose envelope is not JSON is
skipped with its payload; one with a field of a type torch does not write is read without
that field (tlparse reads on past such "unknown fields" too). A log compressed with gzip, bz2
or xz is read as it is; one compressed otherwise is refused with the command to unpack it.
A log that ends inside an event (a job killed mid-write, a copy cut short) keeps every
whole event and says where it stops.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import json
import lzma
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import orjson

from ..capture.events import compile_id
from ..common.contained import Unread

# tlparse's pattern (src/lib.rs): level, month, day, time, process, emitting file:line.
GLOG_LINE = re.compile(rb"^[VIWEC]\d{4} \d{2}:\d{2}:\d{2}\.\d{6} \d+\s*[^:]+:\d+\] (?=.)")
# Envelope keys torch writes as integers (or null); anything else is a damaged event.
_INTEGER_KEYS = ("frame_id", "frame_compile_id", "attempt", "compiled_autograd_id", "rank")
_FIRST_KEY = re.compile(rb'^\{\s*"([A-Za-z_][A-Za-z0-9_]*)"')  # the kind a damaged line names

_READERS: dict[bytes, tuple[str, Callable[[Path], IO[bytes]]]] = {
    b"\x1f\x8b": ("gzip", lambda p: gzip.open(p, "rb")),
    b"BZh": ("bz2", lambda p: bz2.open(p, "rb")),
    b"\xfd7zXZ\x00": ("xz", lambda p: lzma.open(p, "rb")),
}
_REFUSED = {b"\x28\xb5\x2f\xfd": ("zstd", "zstd -d {path}"), b"PK\x03\x04": ("zip", "unzip {path}")}

# One event: (line number of its envelope, metadata, payload or None).
Record = tuple[int, dict[str, Any], "str | None"]


class TraceError(ValueError):
    """A file that cannot be read as a TORCH_TRACE log."""


@dataclass
class TraceLog:
    """One log: its events are read by :meth:`records` as they come (never all held at
    once), and what reading them found wrong is counted here."""

    path: Path
    compression: str | None
    rank: int | None = None
    records_read: int = 0
    lines: int = 0
    unparsed_lines: int = 0  # not glog lines (tlparse: fail_glog)
    bad_envelopes: int = 0  # glog lines whose JSON does not parse (tlparse: fail_json)
    # or whose fields have types torch does not write
    payload_mismatches: int = 0  # payloads whose md5 differs from has_payload
    other_rank_events: int = 0  # events of another rank than the log's (tlparse: other_rank)
    partial: str | None = None  # where and why the log stops early
    unread: Unread = field(default_factory=Unread)  # the damaged events

    def problems(self) -> dict[str, Any]:
        return {
            "lines": self.lines,
            "unparsed_lines": self.unparsed_lines,
            "bad_envelopes": self.bad_envelopes,
            "payload_mismatches": self.payload_mismatches,
            "other_rank_events": self.other_rank_events,
        }

    def records(self) -> Iterator[Record]:
        """The log's events in order, one pass over the file; afterwards an empty file or
        one with no event is a TraceError, and ``rank`` is known (None where no event says
        one: a file name's rank is the job folder's rule, traces/folder.py)."""
        with open_log(self.path)[1] as stream:
            yield from _read_records(_lines(stream, self), self)
        if not self.records_read and not self.partial:
            what = (
                "empty" if self.lines == 0 else "not a TORCH_TRACE log (no line is a trace event)"
            )
            if self.bad_envelopes:
                what = (
                    f"not a readable TORCH_TRACE log ({self.bad_envelopes} glog lines, "
                    "none of them a trace event torch writes)"
                )
            raise TraceError(f"{self.path} is {what}")


def open_log(path: Path) -> tuple[str | None, IO[bytes]]:
    """The file's compression (None, "gzip", "bz2", "xz") and its bytes, unpacked as read;
    a compression that cannot be read here is a TraceError."""
    with path.open("rb") as probe:
        head = probe.read(6)
    for magic, (name, command) in _REFUSED.items():
        if head.startswith(magic):
            raise TraceError(
                f"{path} is {name}-compressed; unpack it first "
                f"({command.format(path=path)}) and import the log inside"
            )
    for magic, (name, opener) in _READERS.items():
        if head.startswith(magic):
            return name, opener(path)
    return None, path.open("rb")


def _lines(stream: IO[bytes], log: TraceLog) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, line without its newline, whether it had one); a compressed stream
    cut short ends the iteration and marks the log partial, one that is no such stream at
    all (a compression header, then garbage) is a TraceError."""
    try:
        for number, line in enumerate(stream, 1):
            log.lines = number
            ended = line.endswith(b"\n")
            yield number, line[:-1] if ended else line, ended
    except (EOFError, OSError, zlib.error, lzma.LZMAError) as exc:
        if log.lines == 0:
            raise TraceError(
                f"{log.path} starts like a {log.compression} file but is not "
                f"one ({type(exc).__name__}: {exc})"
            ) from None
        log.partial = (
            f"the {log.compression} stream ends early after line {log.lines} "
            f"({type(exc).__name__}: {exc}); the log was cut short"
        )


def read_trace_log(path: str | Path) -> TraceLog:
    """Open a log for reading (its events are read by ``.records()``): a missing file or a
    compression that cannot be read is a TraceError now."""
    path = Path(path)
    if not path.is_file():
        raise TraceError(f"no such TORCH_TRACE log: {path}")
    compression, stream = open_log(path)
    stream.close()
    return TraceLog(path=path, compression=compression)


def log_rank(path: Path) -> int | None:
    """The rank a log's events say (the first event that names one), without reading
    further; None where none does."""
    log = read_trace_log(path)
    for _, metadata, _ in log.records():
        if metadata.get("rank") is not None:
            return metadata["rank"]
    return None


def _read_records(lines: Iterator[tuple[int, bytes, bool]], log: TraceLog) -> Iterator[Record]:
    """torch ends every record with a newline: a last line without one was cut mid-write."""
    ahead = next(lines, None)
    while ahead is not None:
        number, line, ended = ahead
        ahead = next(lines, None)
        match = GLOG_LINE.match(line)
        if match is None:
            log.unparsed_lines += 1
            continue
        text = line[match.end() :]
        try:
            metadata = _envelope(text)
        except ValueError as exc:
            if ahead is None and not ended:
                _cut_short(log, f"the log ends inside the event on line {number}; it is left out")
                return
            metadata, damage = None, f"the event's JSON does not parse ({exc})"
        else:
            damage = _damage(metadata)
        if damage is not None:
            log.bad_envelopes += 1
            read = text.decode("utf-8", "replace")
            if not isinstance(metadata, dict):  # skipped, and its payload with it
                log.unread.add("bad_json", _first_key(text), error=damage, line=number, read=read)
                while ahead is not None and ahead[1][:1] == b"\t":
                    ahead = next(lines, None)
                continue
            log.unread.add(
                "bad_envelope",
                _event_name(metadata),
                error=damage,
                line=number,
                read=read,
                compile=compile_id(
                    metadata.get("frame_id"),
                    metadata.get("frame_compile_id"),
                    metadata.get("compiled_autograd_id"),
                ),
            )
        payload = None
        if "has_payload" in metadata:
            payload_lines = []
            while ahead is not None and ahead[1][:1] == b"\t":
                payload_lines.append(ahead[1][1:])
                ahead = next(lines, None)
            raw = b"\n".join(payload_lines)
            if hashlib.md5(raw, usedforsecurity=False).hexdigest() != metadata["has_payload"]:
                if ahead is None:  # the file stops inside this payload
                    _cut_short(
                        log,
                        f"the log ends inside the payload of the event on line "
                        f"{number} ({_event_name(metadata)}); it is left out",
                    )
                    return
                log.payload_mismatches += 1
            payload = raw.decode("utf-8", errors="replace")
        if _same_rank(metadata, log):
            log.records_read += 1
            yield number, metadata, payload


def _envelope(text: bytes) -> Any:
    """orjson, and Python's json module for what only it reads (NaN, Infinity: torch writes
    its metadata with ``json.dumps``)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _damage(metadata: Any) -> str | None:
    """What makes an envelope one torch would not write, or None; a field of the wrong type
    is taken out (a payload's digest becomes one no payload has: it is kept as read)."""
    if not isinstance(metadata, dict):
        return f"the event is a JSON {type(metadata).__name__}, where torch writes an object"
    wrong = []
    for key in _INTEGER_KEYS:
        value = metadata.get(key)
        if value is not None and (type(value) is not int):
            wrong.append(
                f"its {key!r} is {_short(metadata.pop(key))}, where torch writes an integer"
            )
    if "has_payload" in metadata and not isinstance(metadata["has_payload"], str):
        wrong.append(
            f"its 'has_payload' is {_short(metadata['has_payload'])}, where torch "
            "writes an md5 digest"
        )
        metadata["has_payload"] = ""
    return f"read without the field: {'; '.join(wrong)}" if wrong else None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _first_key(text: bytes) -> str | None:
    found = _FIRST_KEY.match(text)
    return found.group(1).decode() if found else None


def _cut_short(log: TraceLog, where: str) -> None:
    log.partial = f"{log.partial}; {where}" if log.partial else where


def _same_rank(metadata: dict[str, Any], log: TraceLog) -> bool:
    """One log is one rank (tlparse's rule): the first rank seen; events of another are left out."""
    rank = metadata.get("rank")
    if rank is None:
        return True
    if log.rank is None:
        log.rank = rank
    if rank != log.rank:
        log.other_rank_events += 1
        return False
    return True


def _event_name(metadata: dict[str, Any]) -> str:
    for key, value in metadata.items():
        if key not in ("rank", "frame_id", "frame_compile_id", "attempt", "has_payload"):
            if key == "artifact" and isinstance(value, dict):
                return str(value.get("name", key))
            return key
    return "?"
