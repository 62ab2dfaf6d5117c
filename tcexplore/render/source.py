"""The source view: the code a document carries (a notebook cell), line by line, with what
torch.compile did at each line — graph breaks, recompiles, guards, graph ops, kernels.

Sources come from ``explore.sources`` (file name -> text); a location matches a line when
it names that file. Every mark links to its section of the report. Graph breaks come
first on a line, one mark per stored site of the audit (``graph_break_sites``; the calls
that led to it marked too); guards and graph ops are one count per line, opening to the
count of each compile; saved activations are the stored ``saved_activations`` lines. A
document saved before those were stored says so above the source.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from typing import Any

from ..common.formatting import format_bytes, plural, share, time_us
from .findings import SHAPES_ANCHOR, shape_rows
from .graph_breaks import OLD_SITES, site_anchor, stored_sites
from .markup import Data, _compile_anchor, _compile_link, _details, _e, _note, _table
from .memory import MEMORY_ANCHOR
from .profile import PROFILE_ANCHOR

OLD_SAVED = (
    "This document was saved before tcexplore stored its saved activations by line: "
    "tcexplore.load() computes them (save it again to keep them)."
)

_MARK_CLASSES = (
    "break",
    "break-path",
    "recompile",
    "shape",
    "time",
    "memory",
    "guard",
    "op",
    "kernel",
)
MAX_LINE_CHARS = 1000  # characters of one source line


def _mark(kind: str, text: str, href: str) -> str:
    return f'<a class="tcx-mark tcx-mark-{_e(kind)}" href="#{_e(href)}">{_e(text)}</a>'


def _counted(kind: str, word: str, per_compile: dict[Any, int]) -> str:
    """One mark for a line's guards (or ops) of every compile, opening to the list."""
    total = sum(per_compile.values())
    items = "".join(
        f"<li>{_compile_link(cid)}: {plural(n, word)}</li>" for cid, n in per_compile.items()
    )
    summary = f'<span class="tcx-mark tcx-mark-{_e(kind)}">{_e(plural(total, word))}</span>'
    return _details(summary, f"<ul>{items}</ul>", cls=f"tcx-mark-list tcx-mark-list-{kind}")


def _break_marks(data: Data, at: Any, found: dict) -> None:
    """One mark per site on its line; the lines of the calls that led there say so."""
    for index, site in enumerate(stored_sites(data) or []):
        anchor = site_anchor(index)
        place = at({"file": site["file"], "line": site["line"]})
        if place:
            found[place].append(
                (
                    "break",
                    _mark(
                        "break", f"{plural(site['count'], 'graph break')} (#{index + 1})", anchor
                    ),
                )
            )
        calls = {at(f) for path in site["paths"] for f in path["stack"]} - {None, place}
        for spot in calls:
            found[spot].append(
                ("break-path", _mark("break-path", f"leads to graph break #{index + 1}", anchor))
            )


def _marks(data: Data, files: set[str]) -> dict[tuple[str, int], list[tuple[str, str]]]:
    """(file, line) -> [(kind, html of the mark)], in the order of _MARK_CLASSES."""
    found: dict[tuple[str, int], list[tuple[str, str]]] = defaultdict(list)

    def at(loc: Any) -> tuple[str, int] | None:
        if isinstance(loc, dict) and loc.get("file") in files and isinstance(loc.get("line"), int):
            return loc["file"], loc["line"]
        return None

    _break_marks(data, at, found)
    for shape in shape_rows(data):
        for guard in shape.get("guards") or []:
            if spot := at(guard):
                found[spot].append(
                    (
                        "shape",
                        _mark("shape", f"{shape['name']}: {guard.get('expr')}", SHAPES_ANCHOR),
                    )
                )
    guards: dict[tuple[str, int], dict[Any, int]] = defaultdict(lambda: defaultdict(int))
    ops: dict[tuple[str, int], dict[Any, int]] = defaultdict(lambda: defaultdict(int))
    for compile_ in data.get("compiles") or []:
        cid = compile_.get("id")
        anchor = _compile_anchor(cid)
        reasons = compile_.get("recompile_reasons") or []
        place = at(compile_.get("frame"))
        if reasons and place:
            found[place].append(("recompile", _mark("recompile", f"recompiled ({cid})", anchor)))
        for guard in compile_.get("guards") or []:
            spot = at(guard.get("user_location")) if isinstance(guard, dict) else None
            if spot:
                guards[spot][cid] += 1
        for node in (compile_.get("dynamo_graph") or {}).get("nodes") or []:
            spot = at(node.get("source")) if isinstance(node, dict) else None
            if spot and node.get("op") in ("call_function", "call_method", "call_module"):
                ops[spot][cid] += 1
        for output in compile_.get("output_codes") or []:
            for kernel in output.get("kernels") or []:
                if kernel.get("kind") == "extern":
                    continue
                for spot in {at(loc) for loc in kernel.get("user_lines") or []} - {None}:
                    found[spot].append(("kernel", _mark("kernel", str(kernel.get("name")), anchor)))
    profile = data.get("profile") if isinstance(data.get("profile"), dict) else {}
    for line in profile.get("lines") or []:
        spot = at(line)
        if spot:
            found[spot].append(
                (
                    "time",
                    _mark(
                        "time",
                        f"{time_us(line.get('time_us'))} · {share(line.get('share'))}",
                        PROFILE_ANCHOR,
                    ),
                )
            )
    for line in (data.get("saved_activations") or {}).get("lines") or []:
        spot = at(line)
        if spot:
            found[spot].append(
                ("memory", _mark("memory", f"saved {format_bytes(line['bytes'])}", MEMORY_ANCHOR))
            )
    for spot, per_compile in guards.items():
        found[spot].append(("guard", _counted("guard", "guard", per_compile)))
    for spot, per_compile in ops.items():
        found[spot].append(("op", _counted("op", "graph op", per_compile)))
    for marks in found.values():
        marks.sort(key=lambda m: _MARK_CLASSES.index(m[0]))
    return found


def _source_table(file: str, text: str, marks: dict[tuple[str, int], list[tuple[str, str]]]) -> str:
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        # A cell magic's line only appears as the outermost frame of a stack: the call
        # into the magic, not code that torch.compile traced.
        here = [] if line.startswith("%%") else marks.get((file, number), [])
        flag = (
            ' class="tcx-flag"' if any(kind in ("break", "recompile") for kind, _ in here) else ""
        )
        code = f'<code class="tcx-line">{_e(line[:MAX_LINE_CHARS])}</code>'
        if len(line) > MAX_LINE_CHARS:
            code += _note(f"… {len(line) - MAX_LINE_CHARS} more characters not shown (truncated)")
        rows.append([f"<span{flag}>{number}</span>", code, " ".join(html for _, html in here)])
    return _table(["line", "code", "what torch.compile did here"], rows, "tcx-source-table")


def _cell_order(labels: dict[str, str], file: str) -> tuple[int, str]:
    """Cells in their execution order ("cell [3]" before "cell [12]"), then other files."""
    found = re.search(r"\[(\d+)\]", labels.get(file) or "")
    return (int(found.group(1)) if found else sys.maxsize, file)


def _absent(data: Data) -> list[str]:
    """What the marks lack in a document saved before it was stored."""
    saved = any(
        ((c.get("memory") or {}).get("saved_for_backward") if isinstance(c, dict) else None)
        for c in data.get("compiles") or []
    )
    absent = [OLD_SITES] if stored_sites(data) is None else []
    if saved and not isinstance(data.get("saved_activations"), dict):
        absent.append(OLD_SAVED)
    return absent


def sources(data: Data) -> str:
    explore = data.get("explore") if isinstance(data.get("explore"), dict) else {}
    texts = {f: t for f, t in (explore.get("sources") or {}).items() if isinstance(t, str)}
    if not texts:
        return ""
    labels = explore.get("source_labels") or {}
    marks = _marks(data, set(texts))
    parts = [_note(text) for text in _absent(data)]
    parts += [
        f"<p><strong>{_e(labels.get(f) or f)}</strong></p>" + _source_table(f, t, marks)
        for f, t in sorted(texts.items(), key=lambda item: _cell_order(labels, item[0]))
    ]
    return _details(
        "Source", "\n".join(parts), cls="tcx-section tcx-source", open_=True, id_="tcx-source"
    )
