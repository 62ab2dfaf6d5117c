"""One compile's section: its header (status, frame, error, restarts), then each part in
turn (graphs, bytecode, guards, output code), its phase tree and cache results."""

from __future__ import annotations

from typing import Any

from ..common.formatting import plural
from .attempts import restarted_attempts
from .bytecode import bytecode_block
from .graphs import aot_graphs, dynamo_graph, post_grad_graphs
from .guards import guards_block, recompile_reasons, symbols_block
from .markup import (
    MAX_ROWS,
    Data,
    _compile_anchor,
    _details,
    _dict_table,
    _e,
    _error_block,
    _location,
    _note,
    _pre,
    _status,
)
from .output_code import output_codes


def _phase_items(phases: list[Any], budget: list[int]) -> str:
    items = []
    for phase in phases:
        if not isinstance(phase, dict):
            continue
        if budget[0] <= 0:
            items.append(f"<li>{_note('… more phases not shown (truncated)')}</li>")
            break
        budget[0] -= 1
        duration = phase.get("duration_ms")
        took = f"{duration:.1f} ms" if isinstance(duration, (int, float)) else "?"
        children = phase.get("children") or []
        sub = _phase_items(children, budget) if children else ""
        items.append(
            f"<li><code>{_e(phase.get('name'))}</code> "
            f'<span class="tcx-muted">{_e(took)}</span>{sub}</li>'
        )
    return f'<ul class="tcx-phases">{"".join(items)}</ul>' if items else ""


def _phases(phases: list[Any]) -> str:
    if not phases:
        return ""
    return _details("Compile time", _phase_items(phases, [MAX_ROWS]), cls="tcx-sub tcx-phases")


def _cache(cache: list[Any]) -> str:
    """Each lookup's cache, result, key and reason; its key's components (hundreds per FX
    graph) are counted, not listed: the diff of two documents names the one that changed."""
    if not cache:
        return ""
    rows = [
        {
            **{k: v for k, v in e.items() if k not in ("key_components", "key_components_unread")},
            "key components": len(e.get("key_components") or []) or None,
        }
        for e in cache
        if isinstance(e, dict)
    ]
    return _details(
        f"Cache results ({len(cache)})",
        _dict_table(rows, "tcx-cache-table"),
        cls="tcx-sub tcx-cache",
    )


# A frame torch skipped after a graph break it could not handle: as torch tells it.
SKIPPED = (
    "torch skipped this frame after a graph break it could not handle: it ran eagerly. "
    "torch's words:"
)


def _compile_header(compile_: Data) -> str:
    parts = [
        (f"<p>Status {_status(compile_.get('status'))} · frame {_location(compile_.get('frame'))}")
    ]
    if compile_.get("attempts"):
        parts.append(f" · {plural(compile_['attempts'], 'attempt')}")
    parts.append("</p>")
    if compile_.get("error") and compile_.get("status") == "skipped":
        parts.append(_note(SKIPPED) + _pre(str(compile_["error"].get("message") or "")))
    elif compile_.get("error"):
        parts.append(_error_block(compile_["error"], "Compile failed"))
    if isinstance(compile_.get("cache_hit"), dict):
        parts.append(_note(compile_["cache_hit"].get("note")))
    if isinstance(compile_.get("without_capture_settings"), dict):
        parts.append(_note(_without_settings(compile_["without_capture_settings"])))
    restarts = compile_.get("restart_reasons") or []
    if restarts:
        items = "".join(f"<li>{_pre(str(r))}</li>" for r in restarts[:MAX_ROWS])
        parts.append(_details(f"Restart reasons ({len(restarts)})", f"<ul>{items}</ul>"))
    return "".join(parts)


def _without_settings(unsettled: Data) -> str:
    what = {
        "provenance": "provenance tracking was off (kernels may show unmapped nodes)",
        "cache_bypass": "the caches were not bypassed (a cold capture asked for that)",
    }
    lacked = "; ".join(what.get(s, str(s)) for s in unsettled.get("settings") or [])
    threads = ", ".join(str(t) for t in unsettled.get("threads") or [])
    return (
        f"Compiled in thread {threads}, outside the capture's settings: {lacked}. "
        "Open capture() in that thread too."
    )


def compile_section(data: Data, compile_: Data) -> str:
    anchor = _compile_anchor(compile_.get("id"))
    frame = compile_.get("frame") if isinstance(compile_.get("frame"), dict) else {}
    body = [
        _compile_header(compile_),
        recompile_reasons(compile_.get("recompile_reasons") or []),
        restarted_attempts(compile_, dynamo_graph),
        dynamo_graph(compile_.get("dynamo_graph")),
        bytecode_block(data, compile_),
        guards_block(compile_),
        symbols_block(compile_),
        aot_graphs(compile_.get("aot_graphs")),
        post_grad_graphs(compile_.get("post_grad_graphs") or []),
        output_codes(anchor, compile_.get("output_codes") or []),
        _phases(compile_.get("phases") or []),
        _cache(compile_.get("cache") or []),
    ]
    # a resume function Dynamo generated, named in the user's words (findings/guard_lines)
    shown = frame.get("shown_name") or frame.get("function")
    summary = (
        f"Compile <code>{_e(compile_.get('id'))}</code> "
        f'<code title="{_e(frame.get("function"))}">{_e(shown)}</code> '
        f"{_status(compile_.get('status'))}"
    )
    return _details(
        summary, "\n".join(p for p in body if p), cls="tcx-section tcx-compile", id_=anchor
    )
