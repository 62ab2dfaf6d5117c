"""A compile's output code: each module Inductor generated, its kernels with the post-grad
nodes, aten ops and user lines they came from, the nodes no kernel computes, the kernels'
sources and the full code."""

from __future__ import annotations

from typing import Any

from ..common.formatting import plural
from .markup import (
    MAX_ROWS,
    Data,
    _captured_note,
    _code,
    _details,
    _e,
    _location_with_code,
    _names,
    _table,
)


def _launches(kernel: Data) -> str:
    """Where a kernel is launched (lines of the output code), with each launch's nodes when
    it is launched from several lines."""
    sites = [s for s in kernel.get("launch_sites") or [] if isinstance(s, dict)]
    if len(sites) < 2:
        return "<br>".join(f"line {_e(s.get('line'))}" for s in sites)
    return "<br>".join(
        f"line {_e(s.get('line'))}: {_names(s.get('post_grad_nodes'))}" for s in sites[:20]
    )


def _kernel_table(kernels: list[Data]) -> str:
    rows = []
    for k in kernels:
        kind = _e(k.get("kind")) + (f" ({_e(k['triton_kind'])})" if k.get("triton_kind") else "")
        user = "<br>".join(_location_with_code(loc) for loc in (k.get("user_lines") or [])[:20])
        rows.append(
            [
                f"<code>{_e(k.get('label') or k.get('name'))}</code>",
                kind,
                _names(k.get("post_grad_nodes")),
                _names(k.get("aten_ops")),
                user,
                _launches(k),
                _e(k.get("mapping")),
            ]
        )
    return _table(
        [
            "kernel",
            "kind",
            "fused post-grad nodes",
            "aten ops",
            "user lines",
            "launched at (line of the output code)",
            "mapping",
        ],
        rows,
        "tcx-kernel-table",
    )


def _kernel_source(anchor: str, index: int, kernel: Data) -> str:
    source = kernel.get("source") or ""
    if not source.strip():
        return ""
    summary = f"Source of <code>{_e(kernel.get('name'))}</code> ({_e(kernel.get('kind'))})"
    return _details(
        summary,
        _code(source, str(kernel.get("kind"))),
        cls="tcx-sub tcx-kernel",
        id_=f"{anchor}-kernel-{index}",
    )


def _output_code(anchor: str, index: int, output: Data) -> str:
    kernels = [k for k in output.get("kernels") or [] if isinstance(k, dict)]
    out_anchor = f"{anchor}-output-{index}"
    parts = []
    if output.get("path"):
        parts.append(f"<p>File: <code>{_e(output['path'])}</code></p>")
    if output.get("post_grad_graph") is not None:
        parts.append(f"<p>From post-grad graph #{_e(output['post_grad_graph'])}</p>")
    parts.append(_kernel_table(kernels))
    unmapped = output.get("unmapped_nodes") or []
    if unmapped:
        why = f" ({output['unmapped_reason']})" if output.get("unmapped_reason") else ""
        parts.append(
            f"<p>Post-grad nodes not mapped to any kernel ({len(unmapped)}){_e(why)}: "
            f"{_names(unmapped)}</p>"
        )
    dead = output.get("dead_nodes") or []
    if dead:
        parts.append(
            f"<p>Post-grad nodes never computed: nothing uses their value, so "
            f"Inductor drops them ({len(dead)}): {_names(dead)}</p>"
        )
    sources = [_kernel_source(out_anchor, i, k) for i, k in enumerate(kernels[:MAX_ROWS])]
    parts.extend(s for s in sources if s)
    parts.append(
        _details("Full output code", _captured_note(output) + _code(output.get("text") or ""))
    )
    summary = f"Output code #{index}: {_e(output.get('kind'))}"
    if output.get("aot_id"):
        summary += f" <code>{_e(output['aot_id'])}</code>"
    summary += f" ({plural(len(kernels), 'kernel')})"
    return _details(summary, "\n".join(parts), cls="tcx-sub tcx-output-code", id_=out_anchor)


def output_codes(anchor: str, outputs: list[Any]) -> str:
    if not outputs:
        return ""
    body = "\n".join(
        _output_code(anchor, i, o) for i, o in enumerate(outputs) if isinstance(o, dict)
    )
    return _details(f"Output code ({len(outputs)})", body, cls="tcx-sub tcx-output-codes")
