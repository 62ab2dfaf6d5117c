"""How the views name Dynamo's resume functions: ``torch_dynamo_resume_in_f_at_19`` is "f
after line 19". Stored as ``resume_labels`` (name -> label) for every resume function a
compile's frame, a graph-break stack or the tracing times name, so no view reads the name
apart itself."""

from __future__ import annotations

import re
from typing import Any

Data = dict[str, Any]

_RESUME = re.compile(r"^torch_dynamo_resume_in_(.+)_at_(\d+)$")


def resume_labels(data: Data) -> dict[str, str]:
    names: list[Any] = [(c.get("frame") or {}).get("function") for c in data.get("compiles") or []]
    names += [
        f.get("function") for b in data.get("graph_breaks") or [] for f in b.get("user_stack") or []
    ]
    names += [
        f.get("function")
        for c in data.get("compiles") or []
        for f in (c.get("tracing") or {}).get("functions") or []
    ]
    labels = {}
    for name in names:
        found = _RESUME.match(name) if isinstance(name, str) else None
        if found:
            labels[name] = f"{found[1]} after line {found[2]}"
    return labels
