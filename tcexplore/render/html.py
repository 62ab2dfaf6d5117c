"""A self-contained HTML report of one tcexplore document.

``render_html(document)`` returns one string: a full page by default (what
``Document.save("x.html")`` writes), or with ``full_page=False`` just the
``<div class="tcx-report">`` fragment, for a notebook. The report needs no network and
no JavaScript: sections are ``<details>`` elements and the only style is an inline
``<style>`` whose rules are all scoped under ``.tcx-report``.

Every string in a document is untrusted (node names, code, file names and reasons come
from user code), so each one goes through :func:`_e` before it reaches the page; code is
highlighted by Pygments, which escapes it itself. Big things are cut with a visible note:
at most :data:`MAX_ROWS` rows per table and :data:`MAX_TEXT_CHARS` characters per text.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any, Iterable

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import CppLexer, CudaLexer, PythonLexer
from pygments.styles.default import DefaultStyle
from pygments.token import Error

__all__ = ["render_html", "MAX_ROWS", "MAX_TEXT_CHARS", "MAX_CELL_ITEMS"]

MAX_ROWS = 500  # rows of any one table
MAX_TEXT_CHARS = 200_000  # characters of any one code/text block
MAX_CELL_ITEMS = 100  # names listed in one table cell (fused nodes, aten ops, ...)

Data = dict[str, Any]


class _Style(DefaultStyle):
    """Pygments' default colours, without the red box it draws around tokens it cannot lex
    (``class <lambda>(...)`` in AOT graphs, kernel snippets cut mid-statement)."""

    styles = {**DefaultStyle.styles, Error: ""}


_FORMATTER = HtmlFormatter(nowrap=True, noclasses=True, style=_Style)
_LEXERS = {"cpp": CppLexer, "rocm": CppLexer, "cuda": CudaLexer}
_STATUSES = ("ok", "cache_hit", "failed", "no_graph", "incomplete")

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
.tcx-report th, .tcx-report td { border: 1px solid #d0d7de; padding: 2px 6px;
  text-align: left; vertical-align: top; }
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
.tcx-report .tcx-status-incomplete, .tcx-report .tcx-status-no_graph { background: #fff8c5; }
.tcx-report ul.tcx-phases { margin: 2px 0; padding-left: 18px; }
"""


# ---------------------------------------------------------------------------- entry point


def render_html(document: Any, *, full_page: bool = True, summary_only: bool = False) -> str:
    """The report for ``document`` (a :class:`tcexplore.Document` or its ``.data`` dict).

    ``full_page=True`` gives a complete HTML file starting with ``<!DOCTYPE html>``;
    ``full_page=False`` only the ``<div class="tcx-report">`` fragment. ``summary_only``
    keeps the overview and graph breaks and says where the full report is (for notebook
    outputs of big documents).
    """
    data: Data = getattr(document, "data", document)
    fragment = _report(data, summary_only)
    if not full_page:
        return fragment
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>tcexplore report</title>\n</head>\n<body>\n" + fragment + "\n</body>\n</html>\n"
    )


def _report(data: Data, summary_only: bool = False) -> str:
    compiles = data.get("compiles") or []
    detail = _note("Summary only: this document is big. JupyterLab with tcexplore installed "
                   "shows all of it; .save(\"report.html\") writes the full report.") \
        if summary_only else _compiles(compiles)
    parts = [
        '<div class="tcx-report">',
        f"<style>{_CSS}</style>",
        "<h1>torch.compile report</h1>",
        _overview(data),
        _graph_breaks(data.get("graph_breaks") or []),
        detail,
        "</div>",
    ]
    return "\n".join(parts)


# ---------------------------------------------------------------------------- helpers


def _e(value: Any) -> str:
    """Escaped text of any document value; ``None`` is empty."""
    if value is None:
        return ""
    return html.escape(str(value), quote=True)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _note(text: str) -> str:
    return f'<p class="tcx-note">{_e(text)}</p>'


def _more_rows_note(hidden: int) -> str:
    return _note(f"… {hidden} more rows not shown (truncated)")


def _compile_anchor(compile_id: Any) -> str:
    """Stable element id of a compile record (escape it when inserting)."""
    return "tcx-compile-" + re.sub(r"\s", "_", str(compile_id))


def _compile_link(compile_id: Any) -> str:
    if compile_id is None:
        return '<span class="tcx-muted">—</span>'
    return f'<a href="#{_e(_compile_anchor(compile_id))}"><code>{_e(compile_id)}</code></a>'


def _c(value: Any) -> str:
    """A value as inline code, escaped; nothing for ``None`` or empty."""
    return f"<code>{_e(value)}</code>" if value not in (None, "") else ""


def _location(loc: Any) -> str:
    """``file:line in function`` of a location object, escaped."""
    if not isinstance(loc, dict):
        return _e(loc) if loc else ""
    where = _e(loc.get("file") or "?")
    if loc.get("line") is not None:
        where += f":{_e(loc.get('line'))}"
    if loc.get("function"):
        where += f" in <code>{_e(loc.get('function'))}</code>"
    return where


def _location_with_code(loc: Any) -> str:
    text = _location(loc)
    if isinstance(loc, dict) and loc.get("code"):
        text += f"<br><code>{_e(loc.get('code'))}</code>"
    return text


def _value(value: Any) -> str:
    """Any JSON value as escaped text for a table cell."""
    if value is None:
        return ""
    if isinstance(value, dict) and ("file" in value or "line" in value):
        return _location_with_code(value)
    if isinstance(value, (dict, list)):
        return f"<code>{_e(json.dumps(value, ensure_ascii=False))}</code>"
    return _e(value)


def _names(items: Iterable[Any], limit: int = MAX_CELL_ITEMS) -> str:
    items = list(items or [])
    shown = ", ".join(f"<code>{_e(item)}</code>" for item in items[:limit])
    if len(items) > limit:
        hidden = len(items) - limit
        shown += f' <span class="tcx-note">… {hidden} more not shown (truncated)</span>'
    return shown


def _table(headers: list[str], rows: list[list[str]], cls: str = "") -> str:
    """A table of already-escaped cells, cut at :data:`MAX_ROWS` rows with a note."""
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows[:MAX_ROWS]
    )
    attrs = f' class="{_e(cls)}"' if cls else ""
    out = f"<table{attrs}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    if len(rows) > MAX_ROWS:
        out += _more_rows_note(len(rows) - MAX_ROWS)
    return out


def _dict_table(items: list[Any], cls: str = "") -> str:
    """A table of free-form objects: one column per key, in first-seen order."""
    dicts = [item for item in items if isinstance(item, dict)]
    keys: list[str] = list(dict.fromkeys(k for item in dicts for k in item))
    rows = [[_value(item.get(k)) for k in keys] for item in dicts]
    return _table(keys, rows, cls)


def _clip(text: str) -> tuple[str, str]:
    """``text`` cut to :data:`MAX_TEXT_CHARS`, and the (escaped) note saying what was cut."""
    text = text or ""
    if len(text) <= MAX_TEXT_CHARS:
        return text, ""
    kept = text[:MAX_TEXT_CHARS]
    newline = kept.rfind("\n")
    if newline > MAX_TEXT_CHARS // 2:
        kept = kept[: newline + 1]
    return kept, _note(f"… {len(text) - len(kept)} more characters not shown (truncated)")


def _pre(text: str) -> str:
    """Plain text in a ``<pre>``, escaped and cut."""
    kept, note = _clip(text)
    return f"<pre>{_e(kept)}</pre>{note}"


def _code(text: str, kind: str = "python") -> str:
    """Source highlighted by Pygments (inline styles, escaped by Pygments), cut."""
    kept, note = _clip(text)
    lexer = _LEXERS.get(kind, PythonLexer)(stripnl=False)
    body = highlight(kept, lexer, _FORMATTER)
    return f'<pre class="tcx-code">{body}</pre>{note}'


def _captured_note(item: Data) -> str:
    """The document's own truncation: the capture kept only part of a text."""
    chars, text = item.get("chars"), item.get("text") or ""
    notes = ""
    if item.get("truncated") or (isinstance(chars, int) and chars > len(text)):
        total = chars if isinstance(chars, int) else "?"
        notes += _note(f"The capture kept {len(text)} of {total} characters of this text "
                       "(truncated in the document).")
    if item.get("nodes_truncated"):
        notes += _note(f"The capture kept the first {len(item.get('nodes') or [])} nodes of "
                       "this graph (truncated in the document).")
    return notes


def _details(summary: str, body: str, *, cls: str = "tcx-sub", open_: bool = False,
             id_: str | None = None) -> str:
    """A collapsible block; ``summary`` is already-escaped HTML."""
    attrs = f' class="{_e(cls)}"'
    if id_ is not None:
        attrs += f' id="{_e(id_)}"'
    if open_:
        attrs += " open"
    return f"<details{attrs}><summary>{summary}</summary>\n{body}\n</details>"


def _error_block(error: Any, title: str) -> str:
    """A failed compile's or the capture's error, with its traceback when there is one."""
    if not isinstance(error, dict):
        return ""
    head = f"<strong>{_e(title)}: {_e(error.get('type') or 'error')}</strong>"
    parts = [f'<div class="tcx-error">{head}', _pre(error.get("message") or "")]
    if error.get("file") or error.get("line") is not None:
        parts.append(f"<p>at {_location(error)}</p>")
    if error.get("traceback"):
        parts.append(_details("Traceback", _pre(error["traceback"]), open_=True))
    parts.append("</div>")
    return "\n".join(parts)


def _link(link: Any) -> str:
    """A documentation link: clickable only for a plain ``https://`` address."""
    if not isinstance(link, str) or not link:
        return ""
    if link.startswith("https://") and not re.search(r"[\s\x00-\x1f\x7f]", link):
        return f'<a href="{_e(link)}" rel="noopener noreferrer">{_e(link)}</a>'
    return f"<code>{_e(link)}</code>"


# ---------------------------------------------------------------------------- overview


def _findings(data: Data) -> str:
    summary = data.get("summary") or {}
    found = []
    for key, word in (("graph_breaks", "graph break"), ("recompiles", "recompile"),
                      ("failures", "failed compile"), ("unmapped_nodes", "unmapped node")):
        count = summary.get(key) or 0
        if count:
            found.append(_plural(count, word))
    if isinstance(data.get("error"), dict):
        found.append("the captured code raised " + str(data["error"].get("type") or "an error"))
    text = ", ".join(found) if found else "No graph breaks, recompiles or failed compiles."
    return f'<p class="tcx-findings">{_e(text)}</p>'


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
    rows.append(["trace events", _e(capture.get("events"))])
    rows.append(["caches bypassed", _e(capture.get("bypass_caches"))])
    return _table(["environment", ""], rows, "tcx-environment")


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
        _findings(data),
        _summary_table(data.get("summary") or {}),
        _environment(data),
        _compile_index(data.get("compiles") or []),
        _capture_problems(data),
    ]
    return _details("Overview", "\n".join(p for p in body if p),
                    cls="tcx-section tcx-overview", open_=True, id_="tcx-overview")


# ---------------------------------------------------------------------------- graph breaks


def _graph_break(index: int, brk: Data) -> str:
    where = _location({"file": brk.get("file"), "line": brk.get("line")})
    parts = [f"<p><strong>{_e(brk.get('reason'))}</strong></p>".replace("\n", "<br>"),
             f"<p>at {where} · compile {_compile_link(brk.get('compile_id'))}</p>"]
    if brk.get("explanation"):
        parts.append(f"<p>{_e(brk['explanation'])}</p>")
    hints = brk.get("hints") or []
    if hints:
        parts.append("<ul class=\"tcx-hints\">"
                     + "".join(f"<li>{_e(h)}</li>" for h in hints[:MAX_ROWS]) + "</ul>")
    if brk.get("link"):
        parts.append(f"<p>More: {_link(brk['link'])}</p>")
    stack = brk.get("user_stack") or []
    if stack:
        rows = [[_location_with_code(loc)] for loc in stack]
        parts.append(_details("User stack", _table(["frame (outermost first)"], rows)))
    first_line = str(brk.get("reason") or "").splitlines()[-1:] or [""]
    summary = f"#{index}: {_e(first_line[0])} <span class=\"tcx-muted\">{where}</span>"
    return _details(summary, "\n".join(parts), cls="tcx-sub tcx-graph-break",
                    id_=f"tcx-graph-break-{index}")


def _graph_breaks(breaks: list[Data]) -> str:
    if breaks:
        items = [_graph_break(i, b) for i, b in enumerate(breaks[:MAX_ROWS])]
        if len(breaks) > MAX_ROWS:
            items.append(_more_rows_note(len(breaks) - MAX_ROWS))
        body = "\n".join(items)
    else:
        body = "<p>No graph breaks.</p>"
    return _details(f"Graph breaks ({len(breaks)})", body,
                    cls="tcx-section tcx-graph-breaks", id_="tcx-graph-breaks")


# ---------------------------------------------------------------------------- compiles


def _status(status: Any) -> str:
    cls = status if status in _STATUSES else "unknown"
    return f'<span class="tcx-status tcx-status-{cls}">{_e(status)}</span>'


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
    body = "\n".join([
        _captured_note(graph),
        _graph_table(graph),
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
        parts.append(f"<p>Post-grad nodes not mapped to any kernel ({len(unmapped)}): "
                     f"{_names(unmapped)}</p>")
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
    restarts = compile_.get("restart_reasons") or []
    if restarts:
        items = "".join(f"<li>{_pre(str(r))}</li>" for r in restarts[:MAX_ROWS])
        parts.append(_details(f"Restart reasons ({len(restarts)})", f"<ul>{items}</ul>"))
    return "".join(parts)


def _compile(compile_: Data) -> str:
    anchor = _compile_anchor(compile_.get("id"))
    frame = compile_.get("frame") if isinstance(compile_.get("frame"), dict) else {}
    body = [
        _compile_header(compile_),
        _recompile_reasons(compile_.get("recompile_reasons") or []),
        _dynamo_graph(compile_.get("dynamo_graph")),
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


def _compiles(compiles: list[Any]) -> str:
    if not compiles:
        return _details("Compiles (0)", "<p>No compiles were recorded.</p>",
                        cls="tcx-section tcx-compiles", id_="tcx-compiles")
    body = "\n".join(_compile(c) for c in compiles if isinstance(c, dict))
    return (f'<div class="tcx-compiles" id="tcx-compiles">'
            f"<h2>Compiles ({len(compiles)})</h2>\n{body}\n</div>")
