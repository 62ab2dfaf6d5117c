"""What could not be read: damaged trace events, and tcexplore's own failures (an event
handler, a document section or a finding that raised), each of which cost only itself.

The counts come from ``capture.unread`` (tcexplore/common/contained.py) and, for a log, from
``capture.log`` (tlparse's Stats: lines not trace lines, envelopes not JSON, payloads failing
their md5). Each group of entries that is not plain damage gets one ``report:`` line a user
can paste into an issue: tcexplore and torch versions, the event kind, the error.
"""

from __future__ import annotations

from typing import Any

from ..common.formatting import plural
from .make import finding, tab_link

Data = dict[str, Any]

# What each reason is, in the finding's words.
WHAT = {
    "bad_json": "damaged in the log (not JSON: a line cut short or overwritten)",
    "bad_envelope": (
        "damaged in the log (a field of a type torch does not write: read without it)"
    ),
    "handler": "not read by tcexplore (its handler raised)",
    "section": "document sections tcexplore could not build",
    "finding": "findings tcexplore could not decide",
}
REPORTED = ("handler", "section", "finding")  # tcexplore's failures, not damage
MAX_REPORTS = 5


def find(data: Data) -> list[Data]:
    capture = data.get("capture") or {}
    unread = capture.get("unread") or {}
    counts = {
        k: v
        for k, v in (unread.get("counts") or {}).items()
        if isinstance(v, int) and v > 0 and k in WHAT
    }
    mismatched = (capture.get("log") or {}).get("payload_mismatches") or 0
    if not counts and not mismatched:
        return []
    events = unread.get("events") or 0
    failures = sum(counts.get(k, 0) for k in ("section", "finding"))
    parts = []
    if events:
        parts.append(f"{plural(events, 'trace event')} could not be read whole")
    if failures:
        parts.append(f"{plural(failures, 'part')} of the document could not be built")
    if mismatched:
        their = "its" if mismatched == 1 else "their"
        parts.append(f"{plural(mismatched, 'payload')} failed {their} checksum (kept as read)")
    title = "; ".join(parts) + ": the rest of the document is kept"
    details = [f"{count} {WHAT[reason]}" for reason, count in counts.items()]
    details += _log_line(capture.get("log") or {})
    details += _reports(data, unread.get("items") or [])
    advice = (
        "A log cut short or edited loses the events it damaged: a whole TORCH_TRACE log "
        "of the run reads them all."
    )
    if any(k in REPORTED for k in counts):
        advice += (
            " What tcexplore itself failed to read is tcexplore's to fix: paste its "
            "`report:` line into an issue."
        )
    return [
        finding(
            "unread",
            "warning",
            title,
            count=events + failures,
            evidence=[tab_link("overview", "Unread events")],
            advice=advice,
            details=details,
        )
    ]


def _log_line(log: Data) -> list[str]:
    if not log:
        return []
    return [
        f"log: {log.get('lines', 0)} lines, {log.get('unparsed_lines', 0)} not trace "
        f"lines, {log.get('bad_envelopes', 0)} damaged events, "
        f"{log.get('payload_mismatches', 0)} payloads failing their md5, "
        f"{log.get('other_rank_events', 0)} events of another rank"
    ]


def _reports(data: Data, items: list[Any]) -> list[str]:
    """One line per kind of failure (reason, kind, error type), the first MAX_REPORTS."""
    versions = (
        f"tcexplore {(data.get('tool') or {}).get('version', '?')}, "
        f"torch {(data.get('environment') or {}).get('torch') or '?'}"
    )
    first: dict[tuple[str, str, str], str] = {}  # (reason, kind, error type) -> its error
    for item in items:
        if isinstance(item, dict) and item.get("reason") in REPORTED:
            error = str(item.get("error") or "")
            key = (str(item["reason"]), str(item.get("kind") or "?"), error.split(":", 1)[0])
            first.setdefault(key, error)
    lines = []
    for (reason, kind, _), error in list(first.items())[:MAX_REPORTS]:
        where = "event" if reason in ("handler", "bad_envelope") else reason
        lines.append(f"report: {versions}: {kind} {where}: {error}")
    return lines
