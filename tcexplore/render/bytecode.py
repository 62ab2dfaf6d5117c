"""Bytecode drawn (what capture/handlers/bytecode.py keeps): a compile's bytecode in the HTML
report, the reading of the modified code, its jumps into resume functions, and the original
and modified instructions side by side (as the extension's Bytecode tab, without the
highlighting)."""

from __future__ import annotations

from typing import Any

from .markup import MAX_ROWS, Data, _compile_link, _details, _e, _location, _more_rows_note, _note

CSS = """
.tcx-report .tcx-bc-sides { display: flex; gap: 12px; align-items: flex-start; }
.tcx-report .tcx-bc-sides > div { flex: 1 1 0; min-width: 0; max-height: 50em; overflow: auto; }
.tcx-report table.tcx-bc-table td { font-family: ui-monospace, Menlo, Consolas, monospace;
  font-size: 12px; border: none; padding: 0 6px; white-space: nowrap; }
.tcx-report tr.tcx-bc-graph { background: #ddf4ff; }
.tcx-report tr.tcx-bc-side_effect { background: #fff8c5; }
.tcx-report tr.tcx-bc-eager, .tcx-report tr.tcx-bc-break { background: #ffebe9; }
.tcx-report tr.tcx-bc-resume, .tcx-report tr.tcx-bc-resume-point { background: #dafbe1; }
.tcx-report tr.tcx-bc-helper td { color: #656d76; }
.tcx-report tr.tcx-bc-wrapper td, .tcx-report li.tcx-bc-wrapper { color: #8c959f;
  font-style: italic; }
"""

_WORDS = {
    "graph": "compiled graph",
    "eager": "runs eagerly",
    "side_effect": "side effect",
    "resume": "resume",
    "local": "local",
    "return": "return",
    "branch": "branch",
    "unread": "not read",
}


def _break_where(data: Data, index: Any) -> str:
    breaks = data.get("graph_breaks") or []
    brk = breaks[index] if isinstance(index, int) and 0 <= index < len(breaks) else None
    return _location(brk) if isinstance(brk, dict) else "a graph break"


def _jump(data: Data, jump: Data) -> str:
    where = (
        f"offset {_e(jump.get('offset'))}"
        if jump.get("line") is None
        else f"line {_e(jump['line'])}"
    )
    compiles = ", ".join(_compile_link(c) for c in jump.get("compiles") or [])
    shared = (
        (
            " (torch names this compile's resume functions alike and does not say which "
            "jump each compile is)"
        )
        if jump.get("shared_name")
        else ""
    )
    return (
        f"<div>→ goes on at {where} in <code>{_e(jump.get('function'))}</code>, made for "
        f"the graph break at {_break_where(data, jump.get('graph_break'))}; compiles: "
        f"{compiles or 'none in this run'}{shared}</div>"
    )


def _reading(data: Data, section: Data) -> str:
    steps = section["reading"]["steps"]
    jumps = iter(section.get("resume_jumps") or [])
    items = []
    for step in steps:
        if step["kind"] == "helper":
            continue
        line = (
            ""
            if step.get("line") is None
            else f' <span class="tcx-muted">line {_e(step["line"])}</span>'
        )
        jump = _jump(data, next(jumps, {})) if step["kind"] == "resume" else ""
        wrapper = ' class="tcx-bc-wrapper"' if step.get("wrapper") else ""
        items.append(
            f"<li{wrapper}><strong>{_e(_WORDS.get(step['kind'], step['kind']))}</strong> "
            f"<code>{_e(step['text'])}</code>{line}{jump}</li>"
        )
    helpers = sum(1 for s in steps if s["kind"] == "helper")
    tail = (
        f'<p class="tcx-muted">{helpers} calls of Dynamo\'s helpers not listed.</p>'
        if helpers
        else ""
    )
    if not section["reading"]["complete"]:
        tail += _note("The reading stops at an instruction it does not know (said above).")
    return f"<ol>{''.join(items)}</ol>{tail}"


def _rows(instructions: list[Data], marks: dict[int, str]) -> str:
    """The instructions as a table, each row classed by its mark, cut at MAX_ROWS (noted)."""
    rows = []
    for index, ins in enumerate(instructions[:MAX_ROWS]):
        mark = "wrapper" if ins.get("wrapper") else marks.get(index)
        attrs = f' class="tcx-bc-{_e(mark)}"' if mark else ""
        cells = [
            ins.get("line") if ins.get("starts_line") else "",
            "" if ins.get("offset") is None else ins["offset"],
            ins.get("opname"),
            ins.get("argrepr") or "",
        ]
        rows.append(f"<tr{attrs}>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("line", "offset", "instruction", "argument"))
    table = (
        f'<table class="tcx-bc-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    if len(instructions) > MAX_ROWS:
        table += _more_rows_note(len(instructions) - MAX_ROWS)
    return table


def _original_marks(data: Data, compile_: Data, section: Data) -> dict[int, str]:
    broke = set((data.get("break_lines") or {}).get(str(compile_.get("id"))) or [])
    resumes = {j.get("offset") for j in section.get("resume_jumps") or []}
    marks = {}
    for index, ins in enumerate(section["original"]["instructions"]):
        if ins.get("offset") is not None and ins["offset"] in resumes:
            marks[index] = "resume-point"
        elif ins.get("line") in broke:
            marks[index] = "break"
    return marks


def bytecode_block(data: Data, compile_: Data) -> str:
    """The compile's bytecode section, or "" when it has none."""
    section = compile_.get("bytecode")
    if not isinstance(section, dict):
        return ""
    modified_marks = {i: s["kind"] for s in section["reading"]["steps"] for i in s["instructions"]}
    continued = compile_.get("resume_of")
    head = ""
    if isinstance(continued, dict):
        head = (
            f"<p>A resume function: it continues the graph break at "
            f"{_break_where(data, continued.get('graph_break'))} "
            f"(compile {_compile_link(continued.get('compile_id'))}).</p>"
        )
    source = (
        "torch's bytecode hook during the capture"
        if section["source"] == "bytecode_hook"
        else "the resume function's bytecode artifacts in TORCH_TRACE"
    )
    body = (
        f"{head}<p>What the modified code does, read from its instructions:</p>"
        f"{_reading(data, section)}"
        f'<div class="tcx-bc-sides"><div><strong>Original bytecode</strong>'
        f"{_rows(section['original']['instructions'], _original_marks(data, compile_, section))}"
        f"</div><div><strong>Modified bytecode</strong> (what runs, under this compile's "
        f"guards){_rows(section['modified']['instructions'], modified_marks)}</div></div>"
        f'<p class="tcx-muted">From {source}, disassembled by dis.</p>'
    )
    return _details("Bytecode: original and modified", body)
