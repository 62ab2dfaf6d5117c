"""Memory drawn (as measure/memory.py measures and findings/memory.py decides it): the "Where
the memory goes" section, the memory finding, the measured peaks, what each compile saves
for backward (heaviest first, each tensor with its forward node and user line, linked to its
compile), what the partitioner recomputes, and Inductor's buffers per output code against
their sum."""

from __future__ import annotations

from ..common.formatting import format_bytes
from .markup import Data, _c, _compile_link, _details, _e, _location, _note, _table

MEMORY_ANCHOR = "tcx-memory"


def _finding(data: Data) -> str:
    """The document's memory finding (findings/memory.py decided it), as stored."""
    finding = next(
        (
            f
            for f in data.get("findings") or []
            if isinstance(f, dict) and f.get("kind") == "memory"
        ),
        None,
    )
    if finding is None:
        return ""
    parts = [
        (
            f'<p class="tcx-finding tcx-{_e(finding["severity"])}"><strong>'
            f"{_e(finding['title'])}</strong></p>"
        ),
        *(f"<p>{_e(detail)}</p>" for detail in finding.get("details") or []),
    ]
    if finding.get("advice"):
        parts.append(f"<p>Advice: {_e(finding['advice'])}</p>")
    return "".join(parts)


def _peaks(data: Data) -> str:
    measured = data.get("memory") or {}
    peaks = measured.get("peak_bytes")
    if measured.get("error"):
        error = measured["error"]
        return _note(f"The memory measurement failed: {error.get('type')}: {error.get('message')}")
    if not peaks:
        return ""
    rows = [
        [
            side,
            _e(format_bytes(peaks[side]["peak_bytes"])),
            _e(format_bytes(peaks[side]["above_before_bytes"])),
        ]
        for side in ("eager", "compiled")
        if peaks.get(side)
    ]
    pools = [
        [
            _e(str(p["pool"])),
            _e(format_bytes(p["reserved_bytes"])),
            _e(format_bytes(p["allocated_bytes"])),
            _e(
                f"{p['share_of_compiled_peak']:.0%}"
                if p.get("share_of_compiled_peak") is not None
                else "—"
            ),
        ]
        for p in measured.get("cudagraph_pools") or []
    ]
    text = _table(["call", "peak", "above what was allocated before"], rows)
    text += f'<p class="tcx-muted">Measured on {_e(peaks["device"])}: {_e(peaks["how"])}.</p>'
    if pools:
        text += _table(["CUDA-graph pool", "reserved", "allocated", "of the compiled peak"], pools)
    return text


def _saved(compile_: Data) -> str:
    memory = compile_["memory"]
    saved = memory["saved_for_backward"]
    rows = [
        [
            _c(t["node"]),
            _c(t["target"]),
            _e(t["kind"]),
            _e(f"{t['dtype']}[{', '.join(t['shape'])}]"),
            _e(format_bytes(t["bytes"])),
            _location(t["user_location"])
            if t["user_location"]
            else '<span class="tcx-muted">—</span>',
        ]
        for t in saved["tensors"]
    ]
    kinds = ", ".join(f"{k} {format_bytes(v)}" for k, v in saved["bytes_by_kind"].items())
    head = (
        f"<p>{_compile_link(compile_['id'])}: {_e(format_bytes(saved['bytes']))} in "
        f"{saved['storages']} storages"
        + (f", {saved['unsized']} of symbolic size" if saved["unsized"] else "")
        + f" ({_e(kinds)})"
        + (
            f"; activation_memory_budget {memory['activation_memory_budget']:g}"
            if memory["activation_memory_budget"] is not None
            else ""
        )
        + "</p>"
    )
    recomputed = memory["recomputed"] or []
    redo = ""
    if recomputed:
        redo = _details(
            f"Recomputed in backward ({len(recomputed)} nodes)",
            _table(
                ["node", "op", "bytes", "user line"],
                [
                    [
                        _c(r["node"]),
                        _c(r["target"]),
                        _e(format_bytes(r["bytes"])),
                        _location(r["user_location"]),
                    ]
                    for r in recomputed
                ],
            ),
        )
    return head + _table(["saved node", "op", "kind", "tensor", "bytes", "user line"], rows) + redo


def _buffers(compile_: Data) -> str:
    rows = [
        [
            _compile_link(compile_["id"]),
            _e(b["kind"]),
            _e(b["buffers"]),
            _e(b["reuses"]),
            _e(format_bytes(b["planned_peak_bytes"])),
            _e(format_bytes(b["allocated_bytes"])),
            _e(format_bytes(b["without_reuse_bytes"])),
        ]
        for b in compile_["memory"]["buffers"]
    ]
    return "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)


def memory_section(data: Data) -> str:
    compiles = [c for c in data.get("compiles") or [] if c.get("memory")]
    if not compiles and not data.get("memory"):
        return ""
    saved = [c for c in compiles if c["memory"]["saved_for_backward"]]
    parts = [_finding(data), _peaks(data)]
    if saved:
        parts.append(_details("Saved for backward", "".join(_saved(c) for c in saved), open_=True))
    buffer_rows = "".join(_buffers(c) for c in compiles)
    if buffer_rows:
        head = "".join(
            f"<th>{h}</th>"
            for h in (
                "compile",
                "output code",
                "buffers",
                "reuses",
                "planned peak",
                "allocated",
                "without reuse",
            )
        )
        parts.append(
            _details(
                "Inductor's buffers per output code",
                f"<table><thead><tr>{head}</tr></thead><tbody>{buffer_rows}</tbody></table>",
            )
        )
    # open when asked for (a measurement); the static sections of any training compile wait
    return _details(
        "Where the memory goes",
        "\n".join(p for p in parts if p),
        cls="tcx-section tcx-memory",
        open_=bool(data.get("memory")),
        id_=MEMORY_ANCHOR,
    )
