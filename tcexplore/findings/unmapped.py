"""Post-grad nodes mapped to no kernel, with why when torch recorded no mapping: the
finding, and each output code's ``unmapped_reason`` the views show beside its nodes."""

from __future__ import annotations

from typing import Any

from ..common.formatting import plural
from .make import finding

# Why nodes go unmapped in a log imported as it is: torch wrote no kernel -> node mapping.
NO_PROVENANCE = (
    "torch recorded no kernel → node mapping (it does with INDUCTOR_PROVENANCE=1 "
    "or TORCH_COMPILE_DEBUG=1, which tcexplore run, explore() and %%tcompile turn "
    "on), so only kernels whose code names their nodes are mapped"
)


# Why nodes go unmapped in a compile served from the caches: the entry holds no mapping.
HIT_WITHOUT_PROVENANCE = (
    "the compile was served from the caches, from an entry written without provenance "
    "tracking, so torch loaded no kernel → node mapping (a cold capture, tcexplore run "
    "--bypass-caches, compiles it afresh)"
)


def _hit(record: dict[str, Any]) -> bool:
    return any(e.get("result") == "hit" for e in record.get("cache") or [])


def decide(data: dict[str, Any]) -> None:
    """Each output code with unmapped nodes and no provenance says why, in place."""
    for record in data.get("compiles") or []:
        for output in record.get("output_codes") or []:
            if output.get("unmapped_nodes") and output.get("provenance") is None:
                output["unmapped_reason"] = (
                    HIT_WITHOUT_PROVENANCE if _hit(record) else NO_PROVENANCE
                )
            else:
                output.pop("unmapped_reason", None)


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    unmapped = (data.get("summary") or {}).get("unmapped_nodes") or 0
    if not unmapped:
        return []
    outputs = [
        (c, i, o)
        for c in data.get("compiles") or []
        for i, o in enumerate(c.get("output_codes") or [])
    ]
    unproven = sum(
        len(o.get("unmapped_nodes") or [])
        for c, _, o in outputs
        if o.get("provenance") is None and not _hit(c)
    )
    loaded = sum(
        len(o.get("unmapped_nodes") or [])
        for c, _, o in outputs
        if o.get("provenance") is None and _hit(c)
    )
    why = (
        f": {HIT_WITHOUT_PROVENANCE}"
        if loaded == unmapped
        else f": {NO_PROVENANCE}"
        if unproven == unmapped
        else f" ({unproven} of them in output codes without torch's kernel → node mapping: "
        "INDUCTOR_PROVENANCE=1 records it)"
        if unproven
        else f" ({loaded} of them in compiles served from entries written without "
        "provenance tracking)"
        if loaded
        else ""
    )
    first = next(((c, i) for c, i, o in outputs if o.get("unmapped_nodes")), None)
    evidence = (
        [
            {
                "tab": "fusion",
                "compile": first[0].get("id"),
                "output": first[1],
                "label": f"compile {first[0].get('id')} in Fusion",
            }
        ]
        if first
        else []
    )
    return [
        finding(
            "unmapped",
            "warning",
            f"{plural(unmapped, 'post-grad node')} mapped to no kernel{why}",
            count=unmapped,
            evidence=evidence,
            advice=(
                "INDUCTOR_PROVENANCE=1 records it: set it where the log is written"
                if unproven
                else None
            ),
        )
    ]
