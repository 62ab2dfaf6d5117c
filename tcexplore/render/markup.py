"""The building blocks of the HTML report: escaping, tables, collapsible blocks, code.

Every string of a document is untrusted, so each one goes through :func:`_e` before it
reaches the page; code is highlighted by Pygments, which escapes it itself. Big things
are cut with a visible note: at most :data:`MAX_ROWS` rows per table and
:data:`MAX_TEXT_CHARS` characters per text.

Locations in a file that the document labels (``explore.source_labels``: a notebook
cell's temporary file is "cell [5]") read "cell [5], line 3": the renderer sets
:data:`SOURCE_LABELS` for the document it renders.
"""

from __future__ import annotations

import contextvars
import html
import json
import re
from collections.abc import Iterable
from typing import Any

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import CppLexer, CudaLexer, PythonLexer
from pygments.styles.default import DefaultStyle
from pygments.token import Error

from ..common.relabel import relabel

MAX_ROWS = 500  # rows of any one table
MAX_TEXT_CHARS = 200_000  # characters of any one code/text block
MAX_CELL_ITEMS = 100  # names listed in one table cell (fused nodes, aten ops, ...)
# Longer code (a whole graph's or module's text) is shown plain: highlighting it took most
# of a big report's time (seconds for a GPT) and doubled its size.
MAX_HIGHLIGHT_CHARS = 20_000

Data = dict[str, Any]


class _Style(DefaultStyle):
    """Pygments' default colours, without the red box it draws around tokens it cannot lex
    (``class <lambda>(...)`` in AOT graphs, kernel snippets cut mid-statement)."""

    styles = {**DefaultStyle.styles, Error: ""}


_FORMATTER = HtmlFormatter(nowrap=True, noclasses=True, style=_Style)
_LEXERS = {"cpp": CppLexer, "rocm": CppLexer, "cuda": CudaLexer}
_STATUSES = ("ok", "cache_hit", "failed", "skipped", "no_graph", "incomplete")

SOURCE_LABELS: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "tcexplore_source_labels", default=None
)


def _e(value: Any) -> str:
    """Escaped text of any document value; ``None`` is empty."""
    if value is None:
        return ""
    return html.escape(str(value), quote=True)


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
    """``file:line in function`` of a location object (``cell [5], line 3 in function``
    in a labelled file), escaped."""
    if not isinstance(loc, dict):
        return _e(loc) if loc else ""
    label = (SOURCE_LABELS.get() or {}).get(loc.get("file"))
    where = _e(label or loc.get("file") or "?")
    if loc.get("line") is not None:
        where += f", line {_e(loc.get('line'))}" if label else f":{_e(loc.get('line'))}"
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
    """A table of already-escaped cells, cut at :data:`MAX_ROWS` rows with a note; no
    header row when every header is empty (a two-column list of facts)."""
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows[:MAX_ROWS]
    )
    attrs = f' class="{_e(cls)}"' if cls else ""
    thead = f"<thead><tr>{head}</tr></thead>" if any(headers) else ""
    out = f"<table{attrs}>{thead}<tbody>{body}</tbody></table>"
    if len(rows) > MAX_ROWS:
        out += _more_rows_note(len(rows) - MAX_ROWS)
    return out


def _dict_table(items: list[Any], cls: str = "") -> str:
    """A table of free-form objects: one column per key, in first-seen order."""
    dicts = [item for item in items if isinstance(item, dict)]
    keys: list[str] = list(dict.fromkeys(k for item in dicts for k in item))
    rows = [[_value(item.get(k)) for k in keys] for item in dicts]
    return _table(keys, rows, cls)


def _relabel(text: str) -> str:
    """Labelled file names in a text (graph code comments, tracebacks, guard trees) as their
    labels (common/relabel.py)."""
    return relabel(text, SOURCE_LABELS.get() or {})


def _clip(text: str) -> tuple[str, str]:
    """``text`` cut to :data:`MAX_TEXT_CHARS`, and the (escaped) note saying what was cut;
    labelled file names in it replaced by their labels."""
    text = _relabel(text or "")
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
    """Source highlighted by Pygments (inline styles, escaped by Pygments), cut; plain when
    longer than :data:`MAX_HIGHLIGHT_CHARS`."""
    kept, note = _clip(text)
    if len(kept) > MAX_HIGHLIGHT_CHARS:
        return f'<pre class="tcx-code">{_e(kept)}</pre>{note}'
    lexer = _LEXERS.get(kind, PythonLexer)(stripnl=False)
    body = highlight(kept, lexer, _FORMATTER)
    return f'<pre class="tcx-code">{body}</pre>{note}'


def _captured_note(item: Data) -> str:
    """The document's own truncation: the capture kept only part of a text."""
    chars, text = item.get("chars"), item.get("text") or ""
    notes = ""
    if item.get("truncated") or (isinstance(chars, int) and chars > len(text)):
        total = chars if isinstance(chars, int) else "?"
        notes += _note(
            f"The capture kept {len(text)} of {total} characters of this text "
            "(truncated in the document)."
        )
    if item.get("nodes_truncated"):
        notes += _note(
            f"The capture kept the first {len(item.get('nodes') or [])} nodes of "
            "this graph (truncated in the document)."
        )
    return notes


def _page(fragment: str, title: str) -> str:
    """A complete HTML file around a report fragment: no scripts, no network (its CSP)."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n</head>\n<body>\n" + fragment + "\n</body>\n</html>\n"
    )


def _details(
    summary: str, body: str, *, cls: str = "tcx-sub", open_: bool = False, id_: str | None = None
) -> str:
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


def _status(status: Any) -> str:
    cls = status if status in _STATUSES else "unknown"
    return f'<span class="tcx-status tcx-status-{cls}">{_e(status)}</span>'
