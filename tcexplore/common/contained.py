"""Failures contained: what could not be read costs only itself, and is kept and counted.

An event whose log line is damaged, an event its handler could not read, a document
section or a finding that raised: each is one entry (its stage, the event kind or the
section's name, the compile id, the error, a short excerpt of what it read) in the
document's ``capture.unread``, counted per reason (as tlparse's ``Stats`` count what it
could not read), and named by the ``unread`` finding with the line to paste into an issue.
The rest of the document is built as if the failing part were absent.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

# Why an entry was not read; the first three are events (counted in summary.unread_events).
EVENT_REASONS = ("bad_json", "bad_envelope", "handler")
REASONS = EVENT_REASONS + ("section", "finding")
KEPT = 50  # entries kept whole in the document; the rest are only counted
EXCERPT = 160  # characters of what was read, kept with an entry
MAX_ERROR = 300  # characters of an error kept


def excerpt(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = text.replace("\n", "\\n")
    return text if len(text) <= EXCERPT else text[:EXCERPT] + "…"


def error_text(exc: BaseException) -> str:
    """The exception's type and the first line of its message."""
    message = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {message[0]}" if message else type(exc).__name__


def _bounded(error: str) -> str:
    return error if len(error) <= MAX_ERROR else error[:MAX_ERROR] + "…"


class Unread:
    """The entries of one document, gathered as it is read and built."""

    def __init__(self) -> None:
        self.counts = dict.fromkeys(REASONS, 0)
        self.items: list[dict[str, Any]] = []
        self._read_without: dict[int, dict[str, Any] | None] = {}  # line -> its entry

    def add(
        self,
        reason: str,
        kind: str | None,
        *,
        error: str,
        compile: str | None = None,
        line: int | None = None,
        read: Any = None,
    ) -> None:
        """One entry; a damaged event read without its bad field (``bad_envelope`` with a
        line) whose handler then raises stays one event: the error joins its entry."""
        if reason == "handler" and line in self._read_without:
            item = self._read_without[line]
            if item is not None:
                item["error"] += f"; read without it, its handler raised {error}"
            return
        self.counts[reason] += 1
        item = None
        if len(self.items) < KEPT:
            item = {
                "reason": reason,
                "kind": kind,
                "compile": compile,
                "line": line,
                "error": _bounded(error),
                "excerpt": None if read is None else excerpt(read),
            }
            self.items.append(item)
        if reason == "bad_envelope" and line is not None:
            self._read_without[line] = item

    def attributed(self, kind: str, compile: str, *, line: int | None, read: Any) -> None:
        """A damaged event whose compile id lost one of its two parts, read as part of the
        compile in progress where it stands: one entry (joined to its ``bad_envelope``
        entry where the lost part was a bad field read without)."""
        said = (
            f"its compile id lost a part; read as part of compile {compile}, the compile in "
            "progress where it stands in the log"
        )
        if line is not None and line in self._read_without:
            item = self._read_without[line]
            if item is not None:
                item["error"] = _bounded(f"{item['error']}; {said}")
            return
        self.add("bad_envelope", kind, error=said, compile=compile, line=line, read=read)

    @contextlib.contextmanager
    def contain(
        self, reason: str, kind: str, *, compile: str | None = None, read: Any = None
    ) -> Iterator[None]:
        """Run the block; an Exception in it is an entry, and the block's work is lost alone."""
        try:
            yield
        except Exception as exc:  # noqa: BLE001 - a failure costs only itself
            self.add(reason, kind, error=error_text(exc), compile=compile, read=read)

    @property
    def events(self) -> int:
        return sum(self.counts[r] for r in EVENT_REASONS)

    def section(self) -> dict[str, Any]:
        """``capture.unread``: the counts per reason, the first entries whole."""
        return {"events": self.events, "counts": dict(self.counts), "items": list(self.items)}


def refresh(section: dict[str, Any] | None, reason: str, fresh: Unread) -> dict[str, Any]:
    """``section`` with its entries of ``reason`` replaced by ``fresh``'s (the findings,
    decided again when a document gains sections)."""
    merged = Unread()
    for item in (section or {}).get("items") or []:
        if item.get("reason") != reason and item.get("reason") in REASONS:
            merged.items.append(item)
    for key, count in ((section or {}).get("counts") or {}).items():
        if key in merged.counts and key != reason:
            merged.counts[key] = count
    merged.counts[reason] = fresh.counts[reason]
    merged.items += [i for i in fresh.items if i["reason"] == reason]
    merged.items = merged.items[:KEPT]
    return merged.section()
