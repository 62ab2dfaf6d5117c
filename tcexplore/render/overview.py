"""The report's Overview: the captured code's error, what the document does not record,
findings, what was not compiled, the graph-break audit, the pipeline's stages (as
findings/pipeline.py stored them), counts, environment, the compile index and capture
problems."""

from __future__ import annotations

from ..common.formatting import fmt_duration
from .findings import findings_list
from .graph_breaks import audit_table
from .markup import (
    MAX_ROWS,
    Data,
    _c,
    _compile_link,
    _details,
    _e,
    _error_block,
    _location,
    _note,
    _status,
    _table,
    _value,
)
from .not_compiled import not_compiled_html


def _summary_table(summary: Data) -> str:
    rows = [[_e(key.replace("_", " ")), _e(value)] for key, value in summary.items()]
    return _table(["count", "value"], rows, "tcx-summary")


def _pipeline(data: Data) -> str:
    """Dynamo → AOTAutograd → Inductor → CUDA graphs, each stage with its counts and time;
    a stage that did nothing here is muted."""
    stages = [s for s in data.get("pipeline") or [] if isinstance(s, dict)]
    if not stages:
        return ""
    cells = []
    for stage in stages:
        took = (
            f" · {_e(fmt_duration(stage['seconds'] * 1000))}"
            if isinstance(stage.get("seconds"), (int, float))
            else ""
        )
        look = "" if stage.get("active") else ' class="tcx-muted"'
        cells.append(
            f"<td{look}><strong>{_e(stage.get('name'))}</strong>{took}<br>"
            + "<br>".join(_e(c) for c in stage.get("counts") or [])
            + "</td>"
        )
    return '<table class="tcx-pipeline"><tr>' + "<td>→</td>".join(cells) + "</tr></table>"


def _environment(data: Data) -> str:
    env = data.get("environment") or {}
    tool = data.get("tool") or {}
    capture = data.get("capture") or {}
    rows = [
        [
            _e(key),
            _value(env.get(key))
            if env.get(key) not in (None, [], "")
            else '<span class="tcx-muted">—</span>',
        ]
        for key in ("torch", "triton", "cuda", "python", "platform", "gpus")
    ]
    rows.append(["tcexplore", _e(tool.get("version"))])
    rows.append(["created", _e(data.get("created"))])
    if capture.get("source") == "trace":
        rows.append(["read from", "TORCH_TRACE log " + _c(capture.get("path"))])
    rows.append(["trace events", _e(capture.get("events"))])
    rows.append(["caches bypassed", _e(capture.get("bypass_caches"))])
    caches = capture.get("caches")
    if isinstance(caches, dict):
        rows.append(
            [
                "the program's caches",
                _e(
                    ", ".join(
                        f"{name} {'on' if caches.get(key) else 'off'}"
                        for key, name in (
                            ("fx_graph_cache", "FX graph"),
                            ("autograd_cache", "AOTAutograd"),
                        )
                    )
                    + (" (force_disable_caches)" if caches.get("force_disable_caches") else "")
                ),
            ]
        )
    distributed = data.get("distributed")
    if isinstance(distributed, dict):
        rows.append(
            [
                "rank",
                _e(
                    f"{distributed.get('rank')} of world size "
                    f"{distributed.get('world_size') or '?'}, backend "
                    f"{distributed.get('backend') or '?'}"
                ),
            ]
        )
    return _table(["environment", ""], rows, "tcx-environment")


def _not_available(data: Data) -> str:
    """What the document's source does not record: shown, so it is not read as 'none'."""
    capture = data.get("capture") or {}
    parts = []
    if capture.get("partial"):
        parts.append(
            f'<div class="tcx-error"><strong>Partial document:</strong> '
            f"{_e(capture['partial'])}</div>"
        )
    missing = [u for u in capture.get("unavailable") or [] if isinstance(u, dict)]
    if missing:
        rows = [[_c(u.get("field")), _e(u.get("reason"))] for u in missing]
        parts.append(
            _details(
                f"Not available in this document ({len(missing)})",
                _note("Its source does not record these: they are unknown, not empty.")
                + _table(["field", "why"], rows, "tcx-unavailable"),
                open_=True,
            )
        )
    return "\n".join(parts)


def _compile_index(compiles: list[Data], passes: list[Data]) -> str:
    """One row per compile; a compile of compiled autograd's traced backward names the step
    that ran it (as the document links them)."""
    if not compiles:
        return "<p>No compiles were recorded.</p>"
    steps = {p.get("id"): p for p in passes if isinstance(p, dict) and p.get("step")}

    def frame(c: Data) -> str:
        ran = steps.get(c.get("compiled_autograd_id"))
        if ran is None:
            return _location(c.get("frame"))
        return (
            f"backward of {_compile_link(ran['step'])} traced by compiled autograd "
            f"(!{_e(ran.get('id'))}), run by {_location(ran.get('call'))}"
        )

    rows = [
        [
            _compile_link(c.get("id")),
            _status(c.get("status")),
            frame(c),
            _e(len(c.get("recompile_reasons") or [])),
        ]
        for c in compiles
    ]
    return _table(["compile", "status", "frame", "recompile reasons"], rows, "tcx-compile-index")


def _capture_problems(data: Data) -> str:
    capture = data.get("capture") or {}
    parts = []
    unread = capture.get("unread") if isinstance(capture.get("unread"), dict) else {}
    items = [i for i in unread.get("items") or [] if isinstance(i, dict)]
    if items:
        rows = [
            [
                _e(i.get("reason")),
                f"<code>{_e(i.get('kind') or '?')}</code>",
                _e(i.get("compile") or ""),
                _e(i.get("line") or ""),
                _e(i.get("error")),
                f"<code>{_e(i.get('excerpt') or '')}</code>",
            ]
            for i in items[:MAX_ROWS]
        ]
        counts = ", ".join(f"{_e(k)} {_e(v)}" for k, v in (unread.get("counts") or {}).items() if v)
        parts.append(
            _details(
                f"Unread events ({_e(unread.get('events', 0))}; {counts})",
                _table(["reason", "kind", "compile", "line", "error", "read"], rows, "tcx-unread"),
                open_=True,
            )
        )
    unknown = data.get("unknown_events") or {}
    if unknown:
        rows = [[f"<code>{_e(k)}</code>", _e(v)] for k, v in unknown.items()]
        parts.append(
            _details(
                "Trace events not interpreted",
                _table(["event", "count"], rows, "tcx-unknown-events"),
            )
        )
    return "\n".join(parts)


def overview(data: Data) -> str:
    body = [
        _error_block(data.get("error"), "The captured code raised"),
        _not_available(data),
        findings_list(data),
        not_compiled_html(data),
        audit_table(data),
        _pipeline(data),
        _summary_table(data.get("summary") or {}),
        _environment(data),
        _compile_index(data.get("compiles") or [], data.get("compiled_autograd") or []),
        _capture_problems(data),
    ]
    return _details(
        "Overview",
        "\n".join(p for p in body if p),
        cls="tcx-section tcx-overview",
        open_=True,
        id_="tcx-overview",
    )
