"""The source view: the code a document carries (a notebook cell), line by line, with what
torch.compile did at each line — graph breaks, recompiles, dynamic sizes, tracing time,
kernel time, kernels, guards, graph ops, saved activations.

Sources come from ``explore.sources`` (file name -> text); the marks are the document's
``source_marks``, decided by findings/source_marks.py (the extension's Source tab draws the
same): each links to its section of the report; guards and graph ops are one count per
line, opening to the count of each compile. A document saved before the marks were stored
says so above the source, which it shows unmarked.
"""

from __future__ import annotations

from ..common.formatting import plural
from .findings import link_href
from .markup import Data, _compile_link, _details, _e, _note, _table

OLD_MARKS = (
    "This document was saved before tcexplore stored its source marks: tcexplore.load() "
    "computes them (save it again to keep them)."
)
MAX_LINE_CHARS = 1000  # characters of one source line
_WORDS = {"guard": "guard", "op": "graph op"}


def _mark(mark: Data) -> str:
    kind = str(mark.get("kind"))
    if kind in _WORDS:
        items = "".join(
            f"<li>{_compile_link(c['compile'])}: {plural(c['count'], _WORDS[kind])}</li>"
            for c in mark.get("per_compile") or []
        )
        summary = f'<span class="tcx-mark tcx-mark-{_e(kind)}">{_e(mark.get("label"))}</span>'
        return _details(summary, f"<ul>{items}</ul>", cls=f"tcx-mark-list tcx-mark-list-{kind}")
    href = link_href(mark.get("link") or {})
    title = f' title="{_e(mark["title"])}"' if mark.get("title") else ""
    return (
        f'<a class="tcx-mark tcx-mark-{_e(kind)}" href="#{_e(href or "tcx-source")}"{title}>'
        f"{_e(mark.get('label'))}</a>"
    )


def _marked_lines(data: Data) -> dict[str, dict[int, Data]] | None:
    """file -> line -> its stored entry (marks, flagged); None: saved before they were."""
    stored = data.get("source_marks")
    if not isinstance(stored, dict):
        return None
    return {
        f["file"]: {line["line"]: line for line in f.get("lines") or []}
        for f in stored.get("files") or []
        if isinstance(f, dict)
    }


def _source_table(file: str, text: str, marked: dict[int, Data]) -> str:
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        entry = marked.get(number) or {}
        flag = ' class="tcx-flag"' if entry.get("flagged") else ""
        code = f'<code class="tcx-line">{_e(line[:MAX_LINE_CHARS])}</code>'
        if len(line) > MAX_LINE_CHARS:
            code += _note(f"… {len(line) - MAX_LINE_CHARS} more characters not shown (truncated)")
        marks = " ".join(_mark(m) for m in entry.get("marks") or [])
        rows.append([f"<span{flag}>{number}</span>", code, marks])
    return _table(["line", "code", "what torch.compile did here"], rows, "tcx-source-table")


def sources(data: Data) -> str:
    explore = data.get("explore") if isinstance(data.get("explore"), dict) else {}
    texts = {f: t for f, t in (explore.get("sources") or {}).items() if isinstance(t, str)}
    if not texts:
        return ""
    labels = explore.get("source_labels") or {}
    marked = _marked_lines(data)
    parts = [_note(OLD_MARKS)] if marked is None else []
    order = list(marked or {})  # the stored order (cells in execution order first)
    parts += [
        f"<p><strong>{_e(labels.get(f) or f)}</strong></p>"
        + _source_table(f, t, (marked or {}).get(f) or {})
        for f, t in sorted(
            texts.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order)
        )
    ]
    return _details(
        "Source", "\n".join(parts), cls="tcx-section tcx-source", open_=True, id_="tcx-source"
    )
