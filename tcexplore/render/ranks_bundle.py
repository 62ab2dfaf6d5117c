"""What a notebook keeps of a multi-rank view: its digest and findings, and the documents
of the ranks its tabs open (one per group of alike ranks, as a one-run output shows them:
slimmed, big ones packed) within explicit limits, in bytes and in documents; the ones left
out are marked with their size and how to open them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..document import MIME_TYPE
from .notebook import display_document
from .ranks_html import render_ranks_html

BUNDLE_EMBED_LIMIT = 8_000_000  # bytes of displayed rank documents one notebook output carries
BUNDLE_MAX_DOCUMENTS = 16  # rank documents one notebook output carries at most


def ranks_mime_bundle(
    data: dict[str, Any],
    documents: Callable[[int], Any],
    text: str,
    limit: int = BUNDLE_EMBED_LIMIT,
) -> dict[str, Any]:
    leads = {g["ranks"][0] for g in data.get("rank_groups") or [] if g.get("ranks")} or {
        e["rank"] for e in data["ranks"]
    }
    entries, budget, carried = [], limit, 0
    for entry in data["ranks"]:
        entry = {**entry, "document": None}
        document = documents(entry["rank"]) if entry["rank"] in leads else None
        if document is not None:
            shown = display_document(document.data)
            size = len(json.dumps(shown, ensure_ascii=False, separators=(",", ":")))
            if size <= budget and carried < BUNDLE_MAX_DOCUMENTS:
                entry["document"], entry["document_left_out"] = shown, None
                budget, carried = budget - size, carried + 1
            else:
                entry["document_left_out"] = {
                    "reason": f"the rank documents of this output would exceed {limit:,} "
                    f"bytes or {BUNDLE_MAX_DOCUMENTS} documents; .save('ranks.html') "
                    "or tcexplore.load() the rank's file to explore it",
                    "bytes": size,
                }
        entries.append(entry)
    return {
        MIME_TYPE: {**data, "ranks": entries},
        "text/html": render_ranks_html(data, documents, full_page=False, summary_only=True),
        "text/plain": text,
    }
