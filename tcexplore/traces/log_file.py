"""Read one ``TORCH_TRACE`` log file into the records torch's trace handler wrote.

The format is what ``TorchLogsFormatter(trace=True)`` in torch/_logging/_internal.py
writes, and what tlparse reads: one glog-style line per event,

    V1122 15:27:26.950000 2116 torch/_dynamo/utils.py:2126] {"chromium_event": {}, ...}

whose JSON object is the event's metadata envelope; when it has ``has_payload`` (the
payload's md5), the payload follows, each of its lines prefixed by a tab. Lines that are
not glog lines are counted and skipped, as tlparse does. A log compressed with gzip, bz2
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterator

# tlparse's pattern (src/lib.rs): level, month, day, time, process, emitting file:line.
GLOG_LINE = re.compile(
    rb"^[VIWEC]\d{4} \d{2}:\d{2}:\d{2}\.\d{6} \d+\s*[^:]+:\d+\] (?=.)")
TRACE_FILE_RANK = re.compile(r"dedicated_log_torch_trace_rank_(\d+)_")

_READERS: dict[bytes, tuple[str, Callable[[Path], IO[bytes]]]] = {
    b"\x1f\x8b": ("gzip", lambda p: gzip.open(p, "rb")),
    b"BZh": ("bz2", lambda p: bz2.open(p, "rb")),
    b"\xfd7zXZ\x00": ("xz", lambda p: lzma.open(p, "rb")),
}
_REFUSED = {b"\x28\xb5\x2f\xfd": ("zstd", "zstd -d {path}"),
            b"PK\x03\x04": ("zip", "unzip {path}")}


class TraceError(ValueError):
    """A file that cannot be read as a TORCH_TRACE log."""


@dataclass
class TraceLog:
    """The events of one log, in order, and what reading it found wrong."""

    path: Path
    compression: str | None
    records: list[tuple[dict[str, Any], str | None]] = field(default_factory=list)
    rank: int | None = None
    lines: int = 0
    unparsed_lines: int = 0       # not glog lines (tlparse: fail_glog)
    bad_envelopes: int = 0        # glog lines whose JSON does not parse (tlparse: fail_json)
    payload_mismatches: int = 0   # payloads whose md5 differs from has_payload
    other_rank_events: int = 0    # events of another rank than the log's (tlparse: other_rank)
    partial: str | None = None    # where and why the log stops early

    def problems(self) -> dict[str, Any]:
        return {"lines": self.lines, "unparsed_lines": self.unparsed_lines,
                "bad_envelopes": self.bad_envelopes,
                "payload_mismatches": self.payload_mismatches,
                "other_rank_events": self.other_rank_events}


def _open(path: Path) -> tuple[str | None, IO[bytes]]:
    with path.open("rb") as probe:
        head = probe.read(6)
    for magic, (name, command) in _REFUSED.items():
        if head.startswith(magic):
            raise TraceError(f"{path} is {name}-compressed; unpack it first "
                             f"({command.format(path=path)}) and import the log inside")
    for magic, (name, opener) in _READERS.items():
        if head.startswith(magic):
            return name, opener(path)
    return None, path.open("rb")


def _lines(stream: IO[bytes], log: TraceLog) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, line without its newline, whether it had one); a compressed stream
    cut short ends the iteration and marks the log partial."""
    try:
        for number, line in enumerate(stream, 1):
            log.lines = number
            ended = line.endswith(b"\n")
            yield number, line[:-1] if ended else line, ended
    except (EOFError, OSError, zlib.error, lzma.LZMAError) as exc:
        log.partial = (f"the {log.compression} stream ends early after line {log.lines} "
                       f"({type(exc).__name__}: {exc}); the log was cut short")


def read_trace_log(path: str | Path) -> TraceLog:
    path = Path(path)
    if not path.is_file():
        raise TraceError(f"no such TORCH_TRACE log: {path}")
    compression, stream = _open(path)
    log = TraceLog(path=path, compression=compression)
    with stream:
        _read_records(_lines(stream, log), log)
    if not log.records and not log.partial:
        what = "empty" if log.lines == 0 else "not a TORCH_TRACE log (no line is a trace event)"
        raise TraceError(f"{path} is {what}")
    named = TRACE_FILE_RANK.search(path.name)
    if log.rank is None and named:
        log.rank = int(named.group(1))
    return log


def _read_records(lines: Iterator[tuple[int, bytes, bool]], log: TraceLog) -> None:
    """torch ends every record with a newline: a last line without one was cut mid-write."""
    ahead = next(lines, None)
    while ahead is not None:
        number, line, ended = ahead
        ahead = next(lines, None)
        match = GLOG_LINE.match(line)
        if match is None:
            log.unparsed_lines += 1
            continue
        try:
            metadata = json.loads(line[match.end():])
        except ValueError:
            if ahead is None and not ended:
                _cut_short(log, f"the log ends inside the event on line {number}; "
                                "it is left out")
                return
            log.bad_envelopes += 1
            continue
        if not isinstance(metadata, dict):
            log.bad_envelopes += 1
            continue
        payload = None
        if "has_payload" in metadata:
            payload_lines = []
            while ahead is not None and ahead[1].startswith(b"\t"):
                payload_lines.append(ahead[1][1:])
                ahead = next(lines, None)
            payload = b"\n".join(payload_lines).decode("utf-8", errors="replace")
            digest = hashlib.md5(payload.encode("utf-8"), usedforsecurity=False).hexdigest()
            if digest != metadata["has_payload"]:
                if ahead is None:  # the file stops inside this payload
                    _cut_short(log, f"the log ends inside the payload of the event on line "
                                    f"{number} ({_event_name(metadata)}); it is left out")
                    return
                log.payload_mismatches += 1
        if _same_rank(metadata, log):
            log.records.append((metadata, payload))


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
