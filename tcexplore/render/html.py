"""A self-contained HTML report of one tcexplore document.

``render_html(document)`` returns one string: a full page by default (what
``Document.save("x.html")`` writes), or with ``full_page=False`` just the
``<div class="tcx-report">`` fragment, for a notebook. The report needs no network and
no JavaScript: sections are ``<details>`` elements and the only style is an inline
``<style>`` whose rules are all scoped under ``.tcx-report``.

Every string in a document is untrusted (node names, code, file names and reasons come
from user code), so each one goes through the escaping of ``markup.py`` before it reaches
the page. Big things are cut with a visible note (``MAX_ROWS``, ``MAX_TEXT_CHARS``).
"""

from __future__ import annotations

import json
from typing import Any

from ..graph_break_audit import graph_break_audit
from .attempts import restarted_attempts
from .bytecode import CSS as _BYTECODE_CSS
from .bytecode import bytecode_block
from .compile_time import compile_time
from .findings import CSS as _FINDINGS_CSS
from .findings import findings_list, shapes_section
from .graph_breaks import audit_table, graph_breaks
from .graph_svg import MAX_SVG_NODES, dynamo_graph_svg
from .markup import (MAX_CELL_ITEMS, SOURCE_LABELS, MAX_ROWS, MAX_TEXT_CHARS, Data, _c, _captured_note, _code,
                     _compile_anchor, _compile_link, _details, _dict_table, _e, _error_block,
                     _location, _location_with_code, _names, _note,
                     _page, _plural, _pre, _status, _table, _value)
from .measurements import measurements
from .not_compiled import not_compiled_html
from .memory import memory_section
from .profile import profile_section
from .source import sources

__all__ = ["render_html", "MAX_ROWS", "MAX_TEXT_CHARS", "MAX_CELL_ITEMS"]


# The doubled class on table cells outranks JupyterLab's `:not(.jp-RenderedMarkdown)
# .jp-RenderedHTMLCommon td` (right-aligned cells) when the fragment is shown there.
_CSS = """
.tcx-report { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 14px;
  line-height: 1.4; color: #1f2328; background: #fff; max-width: 100%; }
.tcx-report h1 { font-size: 20px; margin: 4px 0 12px; }
.tcx-report details { margin: 6px 0; }
.tcx-report details > summary { cursor: pointer; font-weight: 600; }
.tcx-report .tcx-section { border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 10px; }
.tcx-report .tcx-section > summary { font-size: 16px; }
.tcx-report .tcx-sub { margin-left: 8px; border-left: 3px solid #eaeef2; padding-left: 8px; }
.tcx-report table { border-collapse: collapse; margin: 4px 0; font-size: 13px; }
.tcx-report.tcx-report th, .tcx-report.tcx-report td { border: 1px solid #d0d7de;
  padding: 2px 6px; text-align: left; vertical-align: top; }
.tcx-report th { background: #f6f8fa; }
.tcx-report pre, .tcx-report code { font-family: ui-monospace, "SFMono-Regular", Menlo,
  Consolas, monospace; font-size: 12px; }
.tcx-report pre { background: #f6f8fa; padding: 6px 8px; overflow-x: auto; margin: 4px 0;
  white-space: pre; max-height: 40em; overflow-y: auto; }
.tcx-report .tcx-note { color: #9a6700; font-style: italic; margin: 2px 0; }
.tcx-report .tcx-muted { color: #656d76; }
.tcx-report .tcx-error { border: 2px solid #cf222e; background: #ffebe9; border-radius: 6px;
  padding: 6px 10px; margin: 6px 0; }
.tcx-report .tcx-error pre { background: #fff; }
.tcx-report .tcx-findings { font-weight: 600; }
.tcx-report .tcx-status { padding: 0 6px; border-radius: 10px; font-size: 12px;
  background: #eaeef2; }
.tcx-report .tcx-status-ok { background: #dafbe1; }
.tcx-report .tcx-status-failed { background: #ffebe9; color: #cf222e; }
.tcx-report .tcx-status-cache_hit { background: #ddf4ff; }
.tcx-report .tcx-status-random { background: #fff8c5; }
.tcx-report .tcx-status-incomplete, .tcx-report .tcx-status-no_graph { background: #fff8c5; }
.tcx-report ul.tcx-phases { margin: 2px 0; padding-left: 18px; }
.tcx-report code.tcx-line { white-space: pre; }
.tcx-report .tcx-flag { color: #cf222e; font-weight: 700; }
.tcx-report .tcx-mark { display: inline-block; margin: 1px 2px; padding: 0 6px; border-radius: 10px;
  font-size: 12px; text-decoration: none; color: #1f2328; background: #eaeef2; }
.tcx-report .tcx-mark-break, .tcx-report .tcx-mark-recompile { background: #ffebe9;
  color: #cf222e; }
.tcx-report .tcx-mark-kernel { background: #ddf4ff; }
.tcx-report .tcx-mark-shape { background: #fff8c5; }
.tcx-report .tcx-mark-time { background: #ffebe9; color: #a40e26; }
.tcx-report .tcx-mark-break-path { background: #fff; color: #cf222e; border: 1px solid #ffcecb; }
.tcx-report details.tcx-mark-list { display: inline-block; vertical-align: top; margin: 0; }
.tcx-report details.tcx-mark-list > summary { list-style: none; font-weight: 400; }
.tcx-report details.tcx-mark-list > summary::-webkit-details-marker { display: none; }
.tcx-report details.tcx-mark-list ul { margin: 2px 0; padding-left: 18px; font-size: 12px; }
.tcx-report ul.tcx-stack { list-style: none; padding-left: 8px; }
.tcx-report ul.tcx-stack > li { margin: 2px 0; }
.tcx-report table.tcx-break-audit td:nth-child(4) { max-width: 60em; }
.tcx-report .tcx-graph-svg { overflow: auto; max-height: 60em; }
.tcx-report .tcx-graph-svg svg { max-width: none; height: auto; }
"""


# ---------------------------------------------------------------------------- entry point


def render_html(document: Any, *, full_page: bool = True, summary_only: bool = False,
                compiles: list[str] | None = None) -> str:
    """The report for ``document`` (a :class:`tcexplore.Document` or its ``.data`` dict).

    ``full_page=True`` gives a complete HTML file starting with ``<!DOCTYPE html>``;
    ``full_page=False`` only the ``<div class="tcx-report">`` fragment. ``summary_only``
    keeps the overview and graph breaks and says where the full report is (for notebook
    outputs of big documents). ``compiles`` (ids) shows only those compiles in full.
    """
    data: Data = getattr(document, "data", document)
    explore = data.get("explore") if isinstance(data.get("explore"), dict) else {}
    token = SOURCE_LABELS.set(explore.get("source_labels") or {})
    try:
        fragment = _report(data, summary_only, compiles)
    finally:
        SOURCE_LABELS.reset(token)
    return _page(fragment, "tcexplore report") if full_page else fragment


def _report(data: Data, summary_only: bool = False, only: list[str] | None = None) -> str:
    compiles = data.get("compiles") or []
    detail = _note("Summary only: this document is big. JupyterLab with tcexplore installed "
                   "shows all of it; .save(\"report.html\") writes the full report.") \
        if summary_only else _compiles(data, compiles, only)
    parts = [
        '<div class="tcx-report">',
        f"<style>{_CSS}{_BYTECODE_CSS}{_FINDINGS_CSS}</style>",
        "<h1>torch.compile report</h1>",
        _overview(data),
        measurements(data),
        profile_section(data),
        memory_section(data),
        sources(data),
        shapes_section(data),
        compile_time(compiles),
        graph_breaks(data),
        detail,
        "</div>",
    ]
    return "\n".join(parts)



# ---------------------------------------------------------------------------- overview


# Why nodes go unmapped in a log imported as it is: torch wrote no kernel -> node mapping.
NO_PROVENANCE = ("torch recorded no kernel → node mapping (it does with INDUCTOR_PROVENANCE=1 "
                 "or TORCH_COMPILE_DEBUG=1, which tcexplore run, explore() and %%tcompile turn "
                 "on), so only kernels whose code names their nodes are mapped")


def _summary_table(summary: Data) -> str:
    rows = [[_e(key.replace("_", " ")), _e(value)] for key, value in summary.items()]
    return _table(["count", "value"], rows, "tcx-summary")


def _environment(data: Data) -> str:
    env = data.get("environment") or {}
    tool = data.get("tool") or {}
    capture = data.get("capture") or {}
    rows = [[_e(key), _value(env.get(key)) if env.get(key) not in (None, [], "") else
             '<span class="tcx-muted">—</span>']
            for key in ("torch", "triton", "cuda", "python", "platform", "gpus")]
    rows.append(["tcexplore", _e(tool.get("version"))])
    rows.append(["created", _e(data.get("created"))])
    if capture.get("source") == "trace":
        rows.append(["read from", "TORCH_TRACE log " + _c(capture.get("path"))])
    rows.append(["trace events", _e(capture.get("events"))])
    rows.append(["caches bypassed", _e(capture.get("bypass_caches"))])
    distributed = data.get("distributed")
    if isinstance(distributed, dict):
        rows.append(["rank", _e(f"{distributed.get('rank')} of world size "
                                f"{distributed.get('world_size') or '?'}, backend "
                                f"{distributed.get('backend') or '?'}")])
    return _table(["environment", ""], rows, "tcx-environment")


def _not_available(data: Data) -> str:
    """What the document's source does not record: shown, so it is not read as 'none'."""
    capture = data.get("capture") or {}
    parts = []
    if capture.get("partial"):
        parts.append(f'<div class="tcx-error"><strong>Partial document:</strong> '
                     f'{_e(capture["partial"])}</div>')
    missing = [u for u in capture.get("unavailable") or [] if isinstance(u, dict)]
    if missing:
        rows = [[_c(u.get("field")), _e(u.get("reason"))] for u in missing]
        parts.append(_details(f"Not available in this document ({len(missing)})",
                              _note("Its source does not record these: they are unknown, "
                                    "not empty.") + _table(["field", "why"], rows,
                                                           "tcx-unavailable"),
                              open_=True))
    return "\n".join(parts)


def _compile_index(compiles: list[Data]) -> str:
    if not compiles:
        return "<p>No compiles were recorded.</p>"
    rows = [[_compile_link(c.get("id")), _status(c.get("status")), _location(c.get("frame")),
             _e(len(c.get("recompile_reasons") or []))] for c in compiles]
    return _table(["compile", "status", "frame", "recompile reasons"], rows, "tcx-compile-index")


def _capture_problems(data: Data) -> str:
    capture = data.get("capture") or {}
    parts = []
    if capture.get("handler_errors"):
        items = "".join(f"<li><code>{_e(x)}</code></li>"
                        for x in capture["handler_errors"][:MAX_ROWS])
        parts.append(_details("Capture handler errors", f"<ul>{items}</ul>"))
    unknown = data.get("unknown_events") or {}
    if unknown:
        rows = [[f"<code>{_e(k)}</code>", _e(v)] for k, v in unknown.items()]
        parts.append(_details("Trace events not interpreted",
                              _table(["event", "count"], rows, "tcx-unknown-events")))
    return "\n".join(parts)


def _overview(data: Data) -> str:
    body = [
        _error_block(data.get("error"), "The captured code raised"),
        _not_available(data),
        findings_list(data),
        not_compiled_html(data),
        audit_table(data),
        _summary_table(data.get("summary") or {}),
        _environment(data),
        _compile_index(data.get("compiles") or []),
        _capture_problems(data),
    ]
    return _details("Overview", "\n".join(p for p in body if p),
                    cls="tcx-section tcx-overview", open_=True, id_="tcx-overview")


# ---------------------------------------------------------------------------- compiles


def _meta(meta: Any) -> str:
    if not isinstance(meta, dict):
        return ""
    kind = meta.get("kind")
    if kind == "tensor":
        shape = ", ".join(str(s) for s in meta.get("shape") or [])
        text = f"{meta.get('dtype') or '?'}[{shape}]"
        if meta.get("device"):
            text += f" {meta['device']}"
        return f"<code>{_e(text)}</code>"
    if kind == "symint":
        return f"<code>Sym({_e(meta.get('expr'))})</code>"
    return f"<code>{_e(meta.get('text', json.dumps(meta, ensure_ascii=False)))}</code>"


def _graph_table(graph: Data) -> str:
    rows = [[f"<code>{_e(n.get('name'))}</code>", _e(n.get("op")),
             f"<code>{_e(n.get('target'))}</code>", _meta(n.get("meta")),
             _location_with_code(n.get("source"))]
            for n in graph.get("nodes") or [] if isinstance(n, dict)]
    return _table(["name", "op", "target", "shape / dtype", "user line"], rows, "tcx-graph-table")


def _dynamo_graph(graph: Any) -> str:
    if not isinstance(graph, dict):
        return "<p class=\"tcx-muted\">No Dynamo graph.</p>"
    nodes = graph.get("nodes") or []
    svg = dynamo_graph_svg(graph)
    # The picture when Graphviz can draw it; the table keeps shapes and user lines.
    table = _graph_table(graph) if svg is None else (
        f'<div class="tcx-graph-svg">{svg}</div>\n' + _details("Nodes", _graph_table(graph)))
    if len(nodes) > MAX_SVG_NODES:
        table = _note(f"Not drawn: {len(nodes)} nodes (pictures stop at {MAX_SVG_NODES}).") + table
    body = "\n".join([
        _captured_note(graph),
        table,
        _details("Graph code", _code(graph.get("text") or "")),
    ])
    return _details(f"Dynamo graph ({_plural(len(nodes), 'node')})", body,
                    cls="tcx-sub tcx-dynamo-graph")


def _recompile_reasons(reasons: list[Any]) -> str:
    if not reasons:
        return ""
    parts = []
    for i, group in enumerate(reasons):
        rows = [[_compile_link(r.get("failed_compile_id")), f"<code>{_e(r.get('guard'))}</code>",
                 _e(r.get("expected")), _e(r.get("actual"))]
                for r in (group or []) if isinstance(r, dict)]
        parts.append(f"<p>Recompile #{i}:</p>"
                     + _table(["cached compile", "failed guard", "expected", "actual"], rows,
                              "tcx-recompile-table"))
    return _details(f"Recompile reasons ({len(reasons)})", "\n".join(parts),
                    cls="tcx-sub tcx-recompiles", open_=True)


def _guards(compile_: Data) -> str:
    guards = compile_.get("guards") or []
    if not guards and not compile_.get("guards_text"):
        return ""
    rows = [[_e(g.get("type")), _c(g.get("source")), _c(g.get("expression")),
             _c(g.get("user_code")) + ("<br>" if g.get("user_code") else "")
             + _location_with_code(g.get("user_location"))]
            for g in guards if isinstance(g, dict)]
    body = _table(["type", "source", "expression", "user code / location"], rows,
                  "tcx-guards-table")
    if compile_.get("guards_text"):
        body += "\n" + _details("Guard tree (text)", _pre(compile_["guards_text"]))
    return _details(f"Guards ({len(guards)})", body, cls="tcx-sub tcx-guards")


def _symbols(compile_: Data) -> str:
    symbols = compile_.get("symbols") or []
    symbolic = compile_.get("symbolic_guards") or []
    if not symbols and not symbolic:
        return ""
    body = _dict_table(symbols, "tcx-symbols-table") if symbols else ""
    if symbolic:
        body += "<p>Symbolic guards:</p>" + _dict_table(symbolic, "tcx-symbolic-guards-table")
    return _details(f"Symbols ({len(symbols)})", body, cls="tcx-sub tcx-symbols")


def _raw_graph(title: str, graph: Any) -> str:
    if not isinstance(graph, dict):
        return ""
    body = _captured_note(graph) + _code(graph.get("text") or "")
    return _details(title, body)


def _aot_graphs(graphs: Any) -> str:
    if not isinstance(graphs, dict) or not graphs:
        return ""
    body = "\n".join(_raw_graph(f"{_e(name)} graph", g) for name, g in graphs.items())
    return _details(f"AOT graphs ({len(graphs)})", body, cls="tcx-sub tcx-aot-graphs")


def _post_grad_graphs(graphs: list[Any]) -> str:
    if not graphs:
        return ""
    body = "\n".join(_raw_graph(f"Post-grad graph #{i}", g) for i, g in enumerate(graphs))
    return _details(f"Post-grad graphs ({len(graphs)})", body,
                    cls="tcx-sub tcx-post-grad-graphs")


def _kernel_table(kernels: list[Data]) -> str:
    rows = []
    for k in kernels:
        kind = _e(k.get("kind")) + (f" ({_e(k['triton_kind'])})" if k.get("triton_kind") else "")
        user = "<br>".join(_location_with_code(loc) for loc in (k.get("user_lines") or [])[:20])
        rows.append([f"<code>{_e(k.get('name'))}</code>", kind, _names(k.get("post_grad_nodes")),
                     _names(k.get("aten_ops")), user, _e(k.get("mapping"))])
    return _table(["kernel", "kind", "fused post-grad nodes", "aten ops", "user lines", "mapping"],
                  rows, "tcx-kernel-table")


def _kernel_source(anchor: str, index: int, kernel: Data) -> str:
    source = kernel.get("source") or ""
    if not source.strip():
        return ""
    summary = f"Source of <code>{_e(kernel.get('name'))}</code> ({_e(kernel.get('kind'))})"
    return _details(summary, _code(source, str(kernel.get("kind"))),
                    cls="tcx-sub tcx-kernel", id_=f"{anchor}-kernel-{index}")


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
        why = f" ({NO_PROVENANCE})" if output.get("provenance") is None else ""
        parts.append(f"<p>Post-grad nodes not mapped to any kernel ({len(unmapped)}){_e(why)}: "
                     f"{_names(unmapped)}</p>")
    dead = output.get("dead_nodes") or []
    if dead:
        parts.append(f"<p>Post-grad nodes never computed: nothing uses their value, so "
                     f"Inductor drops them ({len(dead)}): {_names(dead)}</p>")
    sources = [_kernel_source(out_anchor, i, k) for i, k in enumerate(kernels[:MAX_ROWS])]
    parts.extend(s for s in sources if s)
    parts.append(_details("Full output code",
                          _captured_note(output) + _code(output.get("text") or "")))
    summary = f"Output code #{index}: {_e(output.get('kind'))}"
    if output.get("aot_id"):
        summary += f" <code>{_e(output['aot_id'])}</code>"
    summary += f" ({_plural(len(kernels), 'kernel')})"
    return _details(summary, "\n".join(parts), cls="tcx-sub tcx-output-code", id_=out_anchor)


def _output_codes(anchor: str, outputs: list[Any]) -> str:
    if not outputs:
        return ""
    body = "\n".join(_output_code(anchor, i, o) for i, o in enumerate(outputs)
                     if isinstance(o, dict))
    return _details(f"Output code ({len(outputs)})", body, cls="tcx-sub tcx-output-codes")


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
        items.append(f"<li><code>{_e(phase.get('name'))}</code> "
                     f"<span class=\"tcx-muted\">{_e(took)}</span>{sub}</li>")
    return f'<ul class="tcx-phases">{"".join(items)}</ul>' if items else ""


def _phases(phases: list[Any]) -> str:
    if not phases:
        return ""
    return _details("Compile time", _phase_items(phases, [MAX_ROWS]), cls="tcx-sub tcx-phases")


def _cache(cache: list[Any]) -> str:
    if not cache:
        return ""
    return _details(f"Cache results ({len(cache)})", _dict_table(cache, "tcx-cache-table"),
                    cls="tcx-sub tcx-cache")


def _compile_header(compile_: Data) -> str:
    parts = [f"<p>Status {_status(compile_.get('status'))} · frame "
             f"{_location(compile_.get('frame'))}"]
    if compile_.get("attempts"):
        parts.append(f" · {_plural(compile_['attempts'], 'attempt')}")
    parts.append("</p>")
    if compile_.get("error"):
        parts.append(_error_block(compile_["error"], "Compile failed"))
    if isinstance(compile_.get("without_capture_settings"), dict):
        parts.append(_note(_without_settings(compile_["without_capture_settings"])))
    restarts = compile_.get("restart_reasons") or []
    if restarts:
        items = "".join(f"<li>{_pre(str(r))}</li>" for r in restarts[:MAX_ROWS])
        parts.append(_details(f"Restart reasons ({len(restarts)})", f"<ul>{items}</ul>"))
    return "".join(parts)


def _without_settings(unsettled: Data) -> str:
    what = {"provenance": "provenance tracking was off (kernels may show unmapped nodes)",
            "cache_bypass": "the caches were on (a cache hit replays code from another run)"}
    lacked = "; ".join(what.get(s, str(s)) for s in unsettled.get("settings") or [])
    threads = ", ".join(str(t) for t in unsettled.get("threads") or [])
    return (f"Compiled in thread {threads}, outside the capture's settings: {lacked}. "
            "Open capture() in that thread too.")


def _compile(data: Data, compile_: Data) -> str:
    anchor = _compile_anchor(compile_.get("id"))
    frame = compile_.get("frame") if isinstance(compile_.get("frame"), dict) else {}
    body = [
        _compile_header(compile_),
        _recompile_reasons(compile_.get("recompile_reasons") or []),
        restarted_attempts(compile_, _dynamo_graph),
        _dynamo_graph(compile_.get("dynamo_graph")),
        bytecode_block(data, compile_),
        _guards(compile_),
        _symbols(compile_),
        _aot_graphs(compile_.get("aot_graphs")),
        _post_grad_graphs(compile_.get("post_grad_graphs") or []),
        _output_codes(anchor, compile_.get("output_codes") or []),
        _phases(compile_.get("phases") or []),
        _cache(compile_.get("cache") or []),
    ]
    summary = (f"Compile <code>{_e(compile_.get('id'))}</code> "
               f"<code>{_e(frame.get('function'))}</code> {_status(compile_.get('status'))}")
    return _details(summary, "\n".join(p for p in body if p), cls="tcx-section tcx-compile",
                    id_=anchor)


# The report stays a page a browser opens quickly: compiles are shown in full up to these
# bounds (the first always), the rest listed with their counts.
MAX_FULL_COMPILES = 50
MAX_COMPILES_CHARS = 20_000_000


def _compiles(data: Data, compiles: list[Any], only: list[str] | None = None) -> str:
    """Each compile in full (``only``: just those ids) while the bounds allow; the others in
    a table saying how to see them."""
    compiles = [c for c in compiles if isinstance(c, dict)]
    if not compiles:
        return _details("Compiles (0)", "<p>No compiles were recorded.</p>",
                        cls="tcx-section tcx-compiles", id_="tcx-compiles")
    shown, listed, size = [], [], 0
    for c in compiles:
        wanted = only is None or c.get("id") in only
        if wanted and len(shown) < MAX_FULL_COMPILES and (not shown or size < MAX_COMPILES_CHARS):
            shown.append(_compile(data, c))
            size += len(shown[-1])
        else:
            listed.append(c)
    body = "\n".join(shown)
    if listed:
        body += "\n" + _compiles_not_shown(listed, only is not None)
    return (f'<div class="tcx-compiles" id="tcx-compiles">'
            f"<h2>Compiles ({len(compiles)})</h2>\n{body}\n</div>")


def _compiles_not_shown(compiles: list[Data], chosen: bool) -> str:
    why = ("Not chosen for this report" if chosen else
           f"This report shows compiles in full up to {MAX_FULL_COMPILES} of them or "
           f"{MAX_COMPILES_CHARS // 1_000_000} MB of page")
    listed = "this one is" if len(compiles) == 1 else f"these {len(compiles)} are"
    how = (f"{why}; {listed} listed only. See one in full with "
           "<code>tcexplore import LOG --compile ID --html OUT.html</code>, in Python with "
           "<code>tcexplore.load(DOC).save(\"OUT.html\", compiles=[\"ID\"])</code>, or open "
           "the document in JupyterLab, whose explorer shows every compile.")
    rows = [[_c(c.get("id")), _location(c.get("frame")), _status(c.get("status")),
             _e(len((c.get("dynamo_graph") or {}).get("nodes") or [])),
             _e(sum(len(o.get("kernels") or []) for o in c.get("output_codes") or [])),
             _e(len(c.get("recompile_reasons") or []))] for c in compiles]
    table = _table(["compile", "frame", "status", "graph nodes", "kernels", "recompile reasons"],
                   rows, "tcx-compiles-not-shown")
    return _details(f"Compiles not shown in full ({len(compiles)})",
                    f'<p class="tcx-note">{how}</p>' + table, cls="tcx-section",
                    open_=True, id_="tcx-compiles-not-shown")
