"""Compiles that ran outside the capture's settings (another thread)."""

from __future__ import annotations

from typing import Any

from .make import compile_link, finding


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for c in data.get("compiles") or []:
        unsettled = c.get("without_capture_settings")
        if not unsettled:
            continue
        lacked = ", ".join(
            "provenance tracking off" if s == "provenance" else "caches not bypassed"
            for s in unsettled.get("settings") or []
        )
        threads = ", ".join(str(t) for t in unsettled.get("threads") or [])
        out.append(
            finding(
                "capture_settings",
                "warning",
                f"Compile {c.get('id')} ran in thread {threads}, outside the capture's settings ({lacked})",
                evidence=[compile_link(c.get("id"))],
                advice="open capture() in that thread too",
            )
        )
    return out
