"""The diff as a self-contained HTML report: no scripts, everything escaped.

Counts and measurements first; then each compile that changed, with its graphs' nodes
side by side (A | B), the guards added and removed, and each kernel with its fused nodes
and the unified diff of its source. Built from ``render/markup.py``'s pieces, styled by
the document report's stylesheet plus a few diff rules.
"""

from __future__ import annotations

from typing import Any

from ..common.formatting import fmt_num, plural
from ..render.html import _CSS
from ..render.markup import Data, _c, _clip, _details, _e, _note, _page, _table
from .text import compile_title, diff_labels, graph_label, line_where

_DIFF_CSS = """
.tcx-report .tcx-added { background: #dafbe1; }
.tcx-report .tcx-removed { background: #ffebe9; }
.tcx-report .tcx-changed { background: #fff8c5; }
.tcx-report pre.tcx-diff span { display: block; }
.tcx-report pre.tcx-diff .tcx-hunk { color: #8250df; }
.tcx-report .tcx-mark-added { background: #dafbe1; }
.tcx-report .tcx-mark-removed { background: #ffebe9; color: #cf222e; }
.tcx-report .tcx-mark-changed { background: #fff8c5; }
"""

_MARKS = {"added": "+", "removed": "−", "changed": "~"}


def render_html(data: Data, *, full_page: bool = True) -> str:
    parts = [
        '<div class="tcx-report tcx-diff-report">',
        f"<style>{_CSS}{_DIFF_CSS}</style>",
        f"<h1>torch.compile diff: {_e(data['a']['label'])} → {_e(data['b']['label'])}</h1>",
        _sides(data),
        _counts(data["summary"]),
        _measurements(data),
        *(
            _compile(entry, diff_labels(data))
            for entry in data["compiles"]
            if entry["status"] != "same"
        ),
        _unchanged(data["compiles"], diff_labels(data)),
        "</div>",
    ]
    fragment = "\n".join(p for p in parts if p)
    return _page(fragment, "tcexplore diff") if full_page else fragment


def _mark(status: str) -> str:
    return f'<span class="tcx-mark tcx-mark-{_e(status)}">{_e(_MARKS.get(status, status))} {_e(status)}</span>'


def _sides(data: Data) -> str:
    """A row per side: its letter, and its label where one was given (the default label is
    the letter: the heading already says "A → B")."""
    labelled = any(data[side]["label"] != side.upper() for side in ("a", "b"))
    rows = [
        [
            _e(side.upper()),
            *([_e(data[side]["label"])] if labelled else []),
            _e(data[side]["created"]),
            _e(data[side]["torch"]),
        ]
        for side in ("a", "b")
    ]
    return _table(["", *(["document"] if labelled else []), "created", "torch"], rows, "tcx-sides")


def _counts(summary: Data) -> str:
    rows = []
    for thing in ("compiles", "nodes", "kernels", "guards"):
        rows.append(
            [_e(thing)]
            + [_e(summary.get(f"{thing}_{what}", "")) for what in ("added", "removed", "changed")]
        )
    found = any(summary.values())
    lead = (
        ""
        if found
        else '<p class="tcx-findings">No differences in what torch.compile produced.</p>'
    )
    return lead + _table(["", "added", "removed", "changed"], rows, "tcx-diff-summary")


def _num(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}"
    return "—" if value is None else str(value)


def _ratio(a: Any, b: Any) -> str:
    if (
        isinstance(a, (int, float))
        and isinstance(b, (int, float))
        and not isinstance(a, bool)
        and a
    ):
        return f"{fmt_num(b / a)}×"
    return ""


def _measurements(data: Data) -> str:
    rows = []
    for section, keys in (
        ("timing", ("compiled_ms", "eager_ms", "speedup", "compile_s", "noisy")),
        ("accuracy", ("ok", "max_abs_err")),
    ):
        if data.get(section):
            a, b = data[section]["a"], data[section]["b"]
            rows += [
                [_e(key), _e(_num(a[key])), _e(_num(b[key])), _e(_ratio(a[key], b[key]))]
                for key in keys
            ]
    if not rows:
        return ""
    body = _table(["", "A", "B", "B / A"], rows, "tcx-diff-measurements")
    return _details("Timing and accuracy", body, cls="tcx-section", open_=True)


def _node_cell(node: Data | None) -> str:
    if node is None:
        return ""
    meta = f"{node['dtype'] or ''}[{', '.join(node['shape'])}]" if node["shape"] is not None else ""
    return f"{_c(node['name'])} {_e(node['target'])}<br>{_c(meta)}"


def _source(node: Data | None, labels: dict[str, str]) -> str:
    source = node["source"] if node else None
    if not source:
        return ""
    return f"{_e(line_where(source, labels))} {_c(source.get('code'))}"


def _graph(graph: Data, open_: bool, labels: dict[str, str]) -> str:
    rows = [
        [
            _mark(n["status"]),
            _node_cell(n["a"]),
            _node_cell(n["b"]),
            _e(", ".join(n["changes"])),
            _source(n["b"] or n["a"], labels),
        ]
        for n in graph["nodes"]
    ]
    counts = ", ".join(
        plural(sum(1 for n in graph["nodes"] if n["status"] == s), f"{s} node")
        for s in ("changed", "added", "removed")
        if any(n["status"] == s for n in graph["nodes"])
    )
    body = _table(["", "A", "B", "what changed", "user line"], rows, "tcx-diff-nodes")
    if graph["approximate"]:
        body = _note("The graphs are too different to align: nodes are paired in order.") + body
    return _details(f"{_e(graph_label(graph['graph']))}: {_e(counts)}", body, open_=open_)


def _guards(guards: Data) -> str:
    rows = [
        [_mark(status), _e(g["type"]), _c(g["expression"]), _c(g["user_code"])]
        for status in ("added", "removed")
        for g in guards[status]
    ]
    if not rows:
        return ""
    return _details(
        f"Guards: {len(guards['added'])} added, {len(guards['removed'])} removed",
        _table(["", "type", "expression", "user code"], rows, "tcx-diff-guards"),
        open_=True,
    )


def _diff_block(diff: str) -> str:
    kept, note = _clip(diff)
    lines = []
    for line in kept.split("\n"):
        cls = (
            "tcx-hunk"
            if line.startswith("@@")
            else "tcx-added"
            if line.startswith("+")
            else "tcx-removed"
            if line.startswith("-")
            else ""
        )
        lines.append(
            f'<span class="{cls}">{_e(line)}</span>' if cls else f"<span>{_e(line)}</span>"
        )
    return f'<pre class="tcx-diff">{"".join(lines)}</pre>{note}'


def _kernel(kernel: Data) -> str:
    a, b = kernel["a"], kernel["b"]
    names = " → ".join(_c(k["name"]) for k in (a, b) if k)
    fused = []
    for pair in kernel["fused_nodes"]:
        if pair["a"] is None:
            fused.append(f'<span class="tcx-added">+{_e(pair["b"])}</span>')
        elif pair["b"] is None:
            fused.append(f'<span class="tcx-removed">−{_e(pair["a"])}</span>')
        else:
            same = pair["a"] == pair["b"]
            fused.append(_c(pair["a"]) if same else f"{_c(pair['a'])}→{_c(pair['b'])}")
    body = [f"<p>fused post-grad nodes: {' '.join(fused) or '—'}</p>"]
    body.append(
        _diff_block(kernel["source_diff"])
        if kernel["source_diff"]
        else _note("Same source (kernel names and hashes aside).")
    )
    return _details(f"{_mark(kernel['status'])} {names}", "\n".join(body))


def _compile(entry: Data, labels: dict[str, str]) -> str:
    body = []
    if entry["status"] in ("added", "removed"):
        side = "B" if entry["status"] == "added" else "A"
        body.append(
            _note(f"Only {side} compiled this; its graphs and kernels are in {side}'s report.")
        )
    for change in entry["changes"]:
        body.append(f"<p>{_e(change['field'])}: {_c(change['a'])} → {_c(change['b'])}</p>")
    body += [
        _graph(g, open_=i == 0, labels=labels) for i, g in enumerate(entry["graphs"])
    ]  # the first open
    body.append(_guards(entry["guards"]))
    for output in entry["outputs"]:
        kernels = "\n".join(_kernel(k) for k in output["kernels"])
        body.append(
            _details(
                f"Kernels ({_e(output['output'])}): {len(output['kernels'])} differ",
                kernels,
                open_=True,
            )
        )
    return _details(
        f"{_mark(entry['status'])} {_e(compile_title(entry, labels))}",
        "\n".join(p for p in body if p),
        cls="tcx-section",
        open_=True,
    )


def _unchanged(compiles: list[Data], labels: dict[str, str]) -> str:
    same = [entry for entry in compiles if entry["status"] == "same"]
    if not same:
        return ""
    items = "".join(f"<li>{_e(compile_title(entry, labels))}</li>" for entry in same)
    return _details(
        f"{plural(len(same), 'compile')} unchanged", f"<ul>{items}</ul>", cls="tcx-section"
    )
