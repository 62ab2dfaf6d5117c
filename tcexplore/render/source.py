"""The source view: the code a document carries (a notebook cell), line by line, with what
torch.compile did at each line — graph breaks, recompiles, guards, graph ops, kernels.

Sources come from ``explore.sources`` (file name -> text); a location matches a line when
it names that file. Every mark links to its section of the report.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .markup import Data, _compile_anchor, _details, _e, _note, _plural, _table

_MARK_CLASSES = ("break", "recompile", "guard", "op", "kernel")
MAX_LINE_CHARS = 1000  # characters of one source line


def _mark(kind: str, text: str, href: str) -> str:
    return (f'<a class="tcx-mark tcx-mark-{_e(kind)}" href="#{_e(href)}">{_e(text)}</a>')


def _marks(data: Data, files: set[str]) -> dict[tuple[str, int], list[tuple[str, str]]]:
    """(file, line) -> [(kind, html of the mark)], in the order of _MARK_CLASSES."""
    found: dict[tuple[str, int], list[tuple[str, str]]] = defaultdict(list)

    def at(loc: Any) -> tuple[str, int] | None:
        if isinstance(loc, dict) and loc.get("file") in files and isinstance(loc.get("line"), int):
            return loc["file"], loc["line"]
        return None

    for i, brk in enumerate(data.get("graph_breaks") or []):
        places = {at({"file": brk.get("file"), "line": brk.get("line")})}
        places.update(at(loc) for loc in brk.get("user_stack") or [])
        for place in places - {None}:
            found[place].append(("break", _mark("break", f"graph break #{i}",
                                                f"tcx-graph-break-{i}")))
    for compile_ in data.get("compiles") or []:
        cid = compile_.get("id")
        anchor = _compile_anchor(cid)
        reasons = compile_.get("recompile_reasons") or []
        place = at(compile_.get("frame"))
        if reasons and place:
            found[place].append(("recompile", _mark("recompile", f"recompiled ({cid})", anchor)))
        guards: dict[tuple[str, int], int] = defaultdict(int)
        for guard in compile_.get("guards") or []:
            spot = at(guard.get("user_location")) if isinstance(guard, dict) else None
            if spot:
                guards[spot] += 1
        for spot, n in guards.items():
            found[spot].append(("guard", _mark("guard", f"{_plural(n, 'guard')} ({cid})", anchor)))
        ops: dict[tuple[str, int], int] = defaultdict(int)
        for node in (compile_.get("dynamo_graph") or {}).get("nodes") or []:
            spot = at(node.get("source")) if isinstance(node, dict) else None
            if spot and node.get("op") in ("call_function", "call_method", "call_module"):
                ops[spot] += 1
        for spot, n in ops.items():
            found[spot].append(("op", _mark("op", f"{_plural(n, 'op')} in graph {cid}", anchor)))
        for output in compile_.get("output_codes") or []:
            for kernel in output.get("kernels") or []:
                if kernel.get("kind") == "extern":
                    continue
                for spot in {at(loc) for loc in kernel.get("user_lines") or []} - {None}:
                    found[spot].append(("kernel", _mark("kernel", str(kernel.get("name")),
                                                        anchor)))
    for marks in found.values():
        marks.sort(key=lambda m: _MARK_CLASSES.index(m[0]))
    return found


def _source_table(file: str, text: str, marks: dict[tuple[str, int], list[tuple[str, str]]]
                  ) -> str:
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        # A cell magic's line only appears as the outermost frame of a stack: the call
        # into the magic, not code that torch.compile traced.
        here = [] if line.startswith("%%") else marks.get((file, number), [])
        flag = ' class="tcx-flag"' if any(kind in ("break", "recompile") for kind, _ in here) else ""
        code = f'<code class="tcx-line">{_e(line[:MAX_LINE_CHARS])}</code>'
        if len(line) > MAX_LINE_CHARS:
            code += _note(f"… {len(line) - MAX_LINE_CHARS} more characters not shown (truncated)")
        rows.append([f"<span{flag}>{number}</span>", code, " ".join(html for _, html in here)])
    return _table(["line", "code", "what torch.compile did here"], rows, "tcx-source-table")


def sources(data: Data) -> str:
    explore = data.get("explore") if isinstance(data.get("explore"), dict) else {}
    texts = {f: t for f, t in (explore.get("sources") or {}).items() if isinstance(t, str)}
    if not texts:
        return ""
    labels = explore.get("source_labels") or {}
    marks = _marks(data, set(texts))
    parts = [f"<p><strong>{_e(labels.get(f) or f)}</strong></p>" + _source_table(f, t, marks)
             for f, t in texts.items()]
    return _details("Source", "\n".join(parts), cls="tcx-section tcx-source", open_=True,
                    id_="tcx-source")
