"""The Overview's "Not compiled" block as both views draw it: the frames Dynamo ran without
compiled code (the document's ``not_compiled``) grouped by torch's reason (category, reason,
advice), in the order torch first gave them, each group the entries' indices; the block's
title, and whether it opens (nothing was compiled). Stored as ``not_compiled_groups``."""

from __future__ import annotations

from typing import Any

from ..common.formatting import plural
from .timing import compiled_anything

Data = dict[str, Any]


def not_compiled_groups(data: Data) -> Data | None:
    entries = [e for e in data.get("not_compiled") or [] if isinstance(e, dict)]
    if not entries:
        return None
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, e in enumerate(entries):
        groups.setdefault((e.get("category"), e.get("reason"), e.get("advice")), []).append(i)
    compiled = compiled_anything(data)
    return {
        "title": f"Not compiled: {plural(len(entries), 'frame')} ran without compiled code"
        + ("" if compiled else " (nothing was compiled)"),
        "open": not compiled,
        "groups": list(groups.values()),
    }
