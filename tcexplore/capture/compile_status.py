"""A compile's ``status`` and ``error``, from torch's metrics and what capture heard."""

from __future__ import annotations

from typing import Any


def compile_status(
    record: dict[str, Any], interruption: dict[str, Any] | None, skipped: bool
) -> tuple[str, dict[str, Any] | None]:
    """``skipped``: torch skipped the frame after a graph break it could not handle (its
    graph-break event says so): the frame ran eagerly, torch's error names the break."""
    metrics = record["metrics"]
    if metrics and metrics.get("fail_type"):
        return "skipped" if skipped else "failed", {
            "type": metrics.get("fail_type"),
            "message": metrics.get("fail_reason"),
            "file": metrics.get("fail_user_frame_filename"),
            "line": metrics.get("fail_user_frame_lineno"),
        }
    backward = record["backward_metrics"]
    if backward and backward.get("fail_type"):
        reason = backward.get("fail_reason")
        return "failed", {
            "type": backward["fail_type"],
            "file": None,
            "line": None,
            "message": "the backward compile failed" + (f": {reason}" if reason else ""),
        }
    if metrics and metrics.get("has_guarded_code") is False:
        # torch closed the compile without code and without naming an exception: a
        # BaseException that is not an Exception (KeyboardInterrupt) cut it short.
        return "failed", _interrupted(interruption)
    if metrics is None and record["dynamo_graph"] is None:
        return "incomplete", None
    if any(c["result"] == "hit" for c in record["cache"]):
        return "cache_hit", None
    if record["dynamo_graph"] is None:
        return "no_graph", None
    return "ok", None


def _interrupted(interruption: dict[str, Any] | None) -> dict[str, Any]:
    if interruption is None:  # a TORCH_TRACE log does not hold the exception
        return {
            "type": None,
            "file": None,
            "line": None,
            "message": "interrupted: torch closed this compile without code and without "
            "an error (a KeyboardInterrupt does this); the log does not say which",
        }
    message = f": {interruption['message']}" if interruption.get("message") else ""
    return {
        "type": interruption["type"],
        "file": None,
        "line": None,
        "message": f"interrupted by {interruption['type']}{message} before the compile "
        "finished; what it had produced is kept",
    }
