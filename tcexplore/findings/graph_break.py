"""Graph breaks, one finding per site of the graph-break audit (most events first)."""

from __future__ import annotations

from typing import Any

from ..graph_break_audit import graph_break_audit
from .make import compile_link, finding, location, source_link


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for site in graph_break_audit(data):
        reason = (site["reasons"] or [{}])[0]
        fn = f" in {site['function']}" if site.get("function") else ""
        hints = reason.get("hints") or []
        loc = location(site)
        links = [link for link in [source_link(site, site["where"])] if link]
        links += [compile_link(cid) for cid in dict.fromkeys(site["compiles"]) if cid]
        out.append(finding(
            "graph_break", "warning",
            f"Graph break ×{site['count']} at {site['where']}{fn}: {reason.get('message') or ''}",
            count=site["count"], locations=[loc] if loc else [], evidence=links,
            advice=hints[0] if hints else None,
            details=[reason["explanation"]] if reason.get("explanation") else [],
            events=site["events"]))
    return out
