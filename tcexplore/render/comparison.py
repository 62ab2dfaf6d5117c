"""The grid of ``compare()``: its HTML (a notebook's text/html fallback, or a saved page with
each row's report) and its notebook MIME bundle (rows' documents as a one-run output shows
them, while they fit a size limit; the ones left out are marked with their size).

The same figures as the JupyterLab extension's grid (model/compare.ts), as findings/
decided them when the grid was built (findings/comparison.py): the headline naming the
fastest configuration that matches eager, its row marked, each speedup's words; speedup
and compile time per configuration drawn to scale, and the table, a failed row with its
error.
"""

from __future__ import annotations

import json
from typing import Any

from ..common.axis import linear_axis
from ..common.formatting import fmt_num, format_bytes
from ..document import MIME_TYPE
from .bars import Bar, axis_chart
from .html import _CSS, render_html
from .markup import Data, _details, _e, _note, _page
from .notebook import BUNDLE_BUDGET, display_document

# A grid's notebook output takes at most what one exploration's output may (rows' documents
# packed, the HTML fallback): a notebook with a grid in it stays light. The rows that do not
# fit are left out, each marked, and the grid says so under its headline.
BUNDLE_EMBED_LIMIT = BUNDLE_BUDGET
LABEL_WIDTH = 230
CHART_WIDTH = 780

_COMPARISON_CSS = """
.tcx-report .tcx-comparison-table tr.tcx-best td { background: #dafbe1; }
.tcx-report .tcx-comparison-table .tcx-row-error { color: #cf222e; white-space: pre-wrap; }
.tcx-report .tcx-row-report { border-top: 2px solid #d0d7de; margin-top: 12px; }
"""


OLD_GRID = (
    "This grid was saved before tcexplore stored its decisions (the fastest row, the "
    "headline): compare() again to see them."
)


def _speedup_bar(row: Data, best: int | None, i: int) -> Bar:
    speedup = row.get("speedup")
    words = row.get("speedup_words") or {}
    if not isinstance(speedup, (int, float)):
        return Bar(row["label"], None, words.get("text", ""), title=words.get("title", ""))
    interval = row.get("speedup_interval")
    return Bar(
        row["label"],
        speedup,
        words.get("text", ""),
        colour="#cf222e" if row.get("status") in ("mismatch", "error") else "#0969da",
        band=tuple(interval) if isinstance(interval, list) else None,
        off_scale=f"to {fmt_num(interval[1])}×" if isinstance(interval, list) else "",
        title=words.get("title", ""),
        highlight=i == best,
    )


def _compile_bar(row: Data, best: int | None, i: int) -> Bar:
    seconds = row.get("compile_s")
    if not isinstance(seconds, (int, float)):
        return Bar(
            row["label"],
            None,
            "failed" if row.get("status") == "error" else "—",
            title=row.get("error") or "",
        )
    return Bar(
        row["label"],
        seconds,
        f"{fmt_num(seconds)} s",
        colour="#8250df",
        title=f"{row['label']}: first call {fmt_num(seconds)} s (compile + one run)",
        highlight=i == best,
    )


def charts(rows: list[Data], best: int | None) -> str:
    speedups = [r["speedup"] for r in rows if isinstance(r.get("speedup"), (int, float))]
    compiles = [r["compile_s"] for r in rows if isinstance(r.get("compile_s"), (int, float))]
    speed_axis = linear_axis(max([1.0, *speedups]) * 1.1, "speedup over eager (×)", "×")
    compile_axis = linear_axis(
        max([0.0, *compiles]) * 1.1, "first call: compile + one run (s)", " s"
    )
    return axis_chart(
        speed_axis,
        [_speedup_bar(r, best, i) for i, r in enumerate(rows)],
        "speedup per configuration",
        width=CHART_WIDTH,
        label_width=LABEL_WIDTH,
        reference=(1.0, "1× = eager"),
    ) + axis_chart(
        compile_axis,
        [_compile_bar(r, best, i) for i, r in enumerate(rows)],
        "compile time per configuration",
        width=CHART_WIDTH,
        label_width=LABEL_WIDTH,
    )


def _value(value: Any, digits: str = ".4g") -> str:
    if value is None:
        return ""
    return _e(format(value, digits)) if isinstance(value, float) else _e(value)


def table(rows: list[Data], winning: int | None, linked: bool = False) -> str:
    body = []
    for i, r in enumerate(rows):
        label = _e(r["label"])
        if linked and r.get("document"):
            label = f'<a href="#tcx-row-{i}">{label}</a>'
        label += "".join(
            f'<div class="tcx-muted">= {_e(s["label"])}: the same run (torch: '
            f"“{_e(s['reason'])}”)</div>"
            for s in r.get("same_runs") or []
        )
        look = {
            "ok": " tcx-status-ok",
            "mismatch": " tcx-status-failed",
            "error": " tcx-status-failed",
        }.get(r.get("status"), "")
        cells = [
            label,
            f'<span class="tcx-status{look}">{_e(r.get("status"))}</span>',
            _value(r.get("compile_s")),
            _value(r.get("median_ms")),
            _value(r.get("speedup"), ".3g"),
            _value(r.get("max_abs_err")),
            _e(format_bytes(r["peak_memory_bytes"]))
            if r.get("peak_memory_bytes") is not None
            else "",
            _value(r.get("graphs")),
            _value(r.get("graph_breaks")),
            _value(r.get("kernels")),
            f'<span class="tcx-row-error">{_e(r.get("error"))}</span>' if r.get("error") else "",
        ]
        marked = ' class="tcx-best"' if i == winning else ""
        body.append(f"<tr{marked}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(
        f"<th>{_e(h)}</th>"
        for h in (
            "configuration",
            "status",
            "compile (s)",
            "runtime (ms)",
            "speedup",
            "max abs err",
            "peak memory",
            "graphs",
            "breaks",
            "kernels",
            "error",
        )
    )
    return (
        f'<table class="tcx-comparison-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _row_reports(rows: list[Data]) -> str:
    parts = []
    for i, row in enumerate(rows):
        if not row.get("document"):
            continue
        report = render_html(row["document"], full_page=False)
        scoped = report.replace('id="tcx-', f'id="row{i}-tcx-').replace(
            'href="#tcx-', f'href="#row{i}-tcx-'
        )
        parts.append(
            f'<div class="tcx-row-report" id="tcx-row-{i}"><h2>{_e(row["label"])}'
            f"</h2>{scoped}</div>"
        )
    return "\n".join(parts)


def _advice(check: Any) -> str:
    """Whether the profile's advice held here (``compare(..., profile=True)``)."""
    if not isinstance(check, dict):
        return ""
    return f'<p class="tcx-{"ok" if check.get("held") else "note"}">{_e(check.get("text"))}</p>'


def render_comparison_html(
    data: Data, *, full_page: bool = True, summary_only: bool = False
) -> str:
    """The grid; with each row's report below it unless ``summary_only``."""
    rows = data.get("rows") or []
    said = (
        f'<p class="tcx-findings">{_e(data["headline"])}</p>'
        if isinstance(data.get("headline"), str)
        else _note(OLD_GRID)
    )
    parts = [
        '<div class="tcx-report tcx-comparison">',
        f"<style>{_CSS}{_COMPARISON_CSS}</style>",
        "<h1>torch.compile configurations compared</h1>",
        said,
        *(f'<p class="tcx-muted tcx-grid-note">{_e(n)}</p>' for n in data.get("notes") or []),
        _advice(data.get("advice_check")),
        charts(rows, data.get("best_row")),
        table(rows, data.get("winning_row"), linked=not summary_only),
    ]
    if summary_only:
        parts.append(
            _note(
                "Each row's full exploration: JupyterLab with tcexplore installed "
                'opens it from the grid; .save("grid.html") writes every row\'s '
                "report."
            )
        )
    else:
        parts.append(
            _details(
                "Each configuration's report", _row_reports(rows), cls="tcx-section", open_=True
            )
        )
    parts.append("</div>")
    fragment = "\n".join(parts)
    return _page(fragment, "tcexplore comparison") if full_page else fragment


def left_out_note(labels: list[str], total: int, limit: int) -> str:
    """The grid's note naming the rows whose documents its notebook output leaves out."""
    return (
        f"{len(labels)} row{'s' if len(labels) != 1 else ''} not in this output "
        f"({', '.join(labels)}; {total / 1e6:.2f} MB), to keep the notebook under "
        f"{limit / 1e6:.1f} MB for this grid: the Comparison's rows[i]['exploration'] "
        "displays one, .save('grid.html') writes every row's report."
    )


def comparison_mime_bundle(
    data: Data, text: str, limit: int = BUNDLE_EMBED_LIMIT
) -> dict[str, Any]:
    """The grid's notebook output: the rows' documents packed, in order, while the output
    (with its HTML) stays within ``limit`` bytes; the rest left out, marked and named."""
    rows, left_out, left_bytes = [], [], 0
    html = render_comparison_html(data, full_page=False, summary_only=True)
    figures = [{k: v for k, v in r.items() if k != "document"} for r in data["rows"]]
    budget = limit - len(html.encode()) - len(json.dumps(figures, ensure_ascii=False))
    for row in data["rows"]:
        row = dict(row)
        if row.get("document") is not None:
            shown = display_document(row["document"], pack_over=0)
            size = len(json.dumps(shown, ensure_ascii=False, separators=(",", ":")))
            if size <= budget:
                row["document"], budget = shown, budget - size
            else:
                row["document"] = None
                row["document_left_out"] = {
                    "reason": f"the row documents of this output would exceed {limit:,} bytes; "
                    "the row's exploration (comparison.rows[i]['exploration']) "
                    "displays it, .save('grid.html') writes its report",
                    "bytes": size,
                }
                left_out.append(row["label"])
                left_bytes += size
        rows.append(row)
    shown_data = {**data, "rows": rows}
    if left_out:
        note = left_out_note(left_out, left_bytes, limit)
        shown_data["notes"] = [*(data.get("notes") or []), note]
        html = render_comparison_html(shown_data, full_page=False, summary_only=True)
    return {MIME_TYPE: shown_data, "text/html": html, "text/plain": text}
