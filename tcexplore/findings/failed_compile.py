"""Compiles that failed (the error torch raised while compiling)."""

from __future__ import annotations

from typing import Any

from .make import compile_link, finding, locations


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for c in data.get("compiles") or []:
        if c.get("status") != "failed":
            continue
        error = c.get("error") or {}
        message = str(error.get("message") or "").strip().splitlines()
        text = f"Compile {c.get('id')} failed: {error.get('type') or ''} {message[0] if message else ''}"
        out.append(
            finding(
                "failed_compile",
                "error",
                text.strip(),
                locations=locations([c.get("frame")]),
                evidence=[compile_link(c.get("id"))],
            )
        )
    return out
