"""An event's payload as the document keeps it: text bounded to MAX_TEXT, or parsed JSON;
and, for a big log, the bound on the graphs and code a document keeps in full."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

MAX_TEXT = 2_000_000  # characters kept of any one graph/code text; the rest is marked truncated


def bounded_text(payload: str | None) -> dict[str, Any]:
    payload = payload or ""
    if len(payload) <= MAX_TEXT:
        return {"text": payload, "truncated": False, "chars": len(payload)}
    return {"text": payload[:MAX_TEXT], "truncated": True, "chars": len(payload)}


def json_or_none(payload: str | None) -> Any:
    try:
        return json.loads(payload) if payload else None
    except ValueError:
        return None


@dataclass
class DetailBudget:
    """The characters of graph and code text a document keeps in full (with the graphs'
    nodes parsed from them), decided per compile in the order compiles begin: a compile is
    kept whole while the characters kept before it stay within ``limit``, the compiles in
    ``keep`` always. The others keep their counts, guards, breaks, metrics and kernels; their
    graphs and code are left out with their size. Memory then follows what is kept, not
    the log: a graph's nodes take about six bytes of memory per character of its text."""

    limit: int
    keep: frozenset[str] = frozenset()
    kept: int = 0
    decided: dict[str, bool] = field(default_factory=dict)  # compile id -> kept whole

    def keeps(self, compile_id: str, payload: str | None) -> bool:
        whole = self.decided.setdefault(
            compile_id, compile_id in self.keep or self.kept <= self.limit
        )
        if whole:
            self.kept += len(payload or "")
        return whole

    @property
    def left_out(self) -> list[str]:
        return [cid for cid, whole in self.decided.items() if not whole]


def left_out_text(payload: str | None) -> dict[str, Any]:
    """A text left out for the document's size: none of it, and how long it was."""
    return {"text": "", "truncated": True, "chars": len(payload or "")}
