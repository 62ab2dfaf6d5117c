"""Graph breaks, one finding per site of the graph-break audit (most events first)."""

from __future__ import annotations

from typing import Any

from . import fixes
from .graph_break_audit import graph_break_audit, source_labels
from .make import compile_link, finding, location, short_where, source_link


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    labels = source_labels(data)
    for site in graph_break_audit(data):
        reason = (site["reasons"] or [{}])[0]
        fn = f" in {site['function']}" if site.get("function") else ""
        hints = reason.get("hints") or []
        loc = location(site)
        at = short_where(site["file"], site["line"], labels)
        links = [link for link in [source_link(site, at)] if link]
        links += [compile_link(cid) for cid in dict.fromkeys(site["compiles"]) if cid]
        out.append(
            finding(
                "graph_break",
                "warning",
                f"Graph break ×{site['count']} at {at}{fn}: {reason.get('message') or ''}"
                + _skipped(reason),
                count=site["count"],
                locations=[loc] if loc else [],
                evidence=links,
                advice=hints[0] if hints else None,
                details=[reason["explanation"]] if reason.get("explanation") else [],
                events=site["events"],
                fix=_fix(data, reason, hints, site["compiles"]),
            )
        )
    return out


def _skipped(reason: dict[str, Any]) -> str:
    """What torch did after a break it could not handle, as it says it: the frame skipped,
    run eagerly (torch's explanation names a break in a loop)."""
    if not reason.get("skipped_frame"):
        return ""
    loop = "loop" in str(reason.get("explanation") or "") or "in loop" in str(
        reason.get("details") or ""
    )
    skipped, count = reason.get("skipped_frames") or 1, reason.get("count") or 1
    times = f" {skipped} of the {count} times" if skipped < count else ""
    return (
        f";{times} torch could not go on after it"
        + (" (a graph break in a loop)" if loop else "")
        + " and skipped the frame: it ran eagerly"
    )


def _fix(
    data: dict[str, Any], reason: dict[str, Any], hints: list[str], compiles: list[Any]
) -> dict[str, Any] | None:
    """The setting torch's own words for this break name (unless the compiles that broke
    ran with it), else a change to the line."""
    said = " ".join([str(reason.get("message") or ""), *map(str, hints)])
    for name, fix in (
        ("capture_scalar_outputs", fixes.CAPTURE_SCALARS),
        ("capture_dynamic_output_shape_ops", fixes.DYNAMIC_OUTPUT_SHAPES),
    ):
        if name in said and not fixes.in_force(data, fix, compiles):
            return fix
    return fixes.code_change(fixes.LINE_CHANGE) if hints else None
