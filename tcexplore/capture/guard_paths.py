"""Guard locations' paths, which torch prints cut to their last characters, completed."""

from __future__ import annotations

from typing import Any

from .library_files import torch_file


def complete_guard_paths(compiles: list[dict[str, Any]], graph_breaks: list[Any]) -> None:
    """torch prints guard locations with the path cut to its last characters; where exactly
    one full path torch reported elsewhere in this capture ends with it, use that path; a
    path of torch's own package, cut to below it, is completed to that file."""
    known = {f["file"] for f in (c["frame"] for c in compiles) if f and f.get("file")}
    for record in compiles:
        graph = record["dynamo_graph"] or {"nodes": []}
        known.update(n["source"]["file"] for n in graph["nodes"] if n.get("source"))
    known.update(frame["file"] for b in graph_breaks for frame in b["user_stack"])
    for record in compiles:
        located = [g["user_location"] for g in record["guards"]]
        located += [r["user_location"] for group in record["recompile_reasons"] for r in group]
        for location in filter(None, located):
            matches = [path for path in known if path.endswith(location["file"])]
            if len(matches) == 1:
                location["file"] = matches[0]
            elif isinstance(location["file"], str):
                location["file"] = torch_file(location["file"]) or location["file"]
