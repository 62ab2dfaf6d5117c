"""What a compile is reused under and why it was not: its recompile reasons, guards and
symbols."""

from __future__ import annotations

from typing import Any

from .markup import (
    Data,
    _c,
    _compile_link,
    _details,
    _dict_table,
    _e,
    _location_with_code,
    _pre,
    _table,
)


def recompile_reasons(reasons: list[Any]) -> str:
    if not reasons:
        return ""
    parts = []
    for i, group in enumerate(reasons):
        rows = [
            [
                _compile_link(r.get("failed_compile_id")),
                f"<code>{_e(r.get('guard'))}</code>",
                _e(r.get("expected")),
                _e(r.get("actual")),
                _user_code(r),
            ]
            for r in (group or [])
            if isinstance(r, dict)
        ]
        parts.append(
            f"<p>Recompile #{i}:</p>"
            + _table(
                ["cached compile", "failed guard", "expected", "actual", "user code"],
                rows,
                "tcx-recompile-table",
            )
        )
    return _details(
        f"Recompile reasons ({len(reasons)})",
        "\n".join(parts),
        cls="tcx-sub tcx-recompiles",
        open_=True,
    )


def _user_code(row: Data) -> str:
    """The user's line findings/guard_lines.py chose (the guard's own, or each call of the
    compiled frame); none chosen: the library's location, muted; an older document: the
    location as torch printed it."""
    line = row.get("user_line")
    if isinstance(line, dict):
        code = _c(line.get("code")) + "<br>" if line.get("code") else ""
        if line.get("frame"):
            title = (
                f' title="torch\'s location: {_e(line.get("library_line"))}"'
                if line.get("library_line")
                else ""
            )
            return (
                f'<span class="tcx-muted"{title}>each call of {_e(line.get("function"))} '
                f"({_e(line.get('where'))})</span>"
            )
        return code + _e(line.get("where"))
    if "user_line" in row:
        where = row.get("user_location")
        return (
            f'<span class="tcx-muted">library: {_location_with_code(where)}</span>' if where else ""
        )
    return (
        _c(row.get("user_code"))
        + ("<br>" if row.get("user_code") else "")
        + _location_with_code(row.get("user_location"))
    )


def guards_block(compile_: Data) -> str:
    guards = compile_.get("guards") or []
    if not guards and not compile_.get("guards_text"):
        return ""
    rows = [
        [
            _e(g.get("type")),
            _c(g.get("source")),
            _c(g.get("expression")),
            _user_code(g),
        ]
        for g in guards
        if isinstance(g, dict)
    ]
    body = _table(
        ["type", "source", "expression", "user code / location"], rows, "tcx-guards-table"
    )
    if compile_.get("guards_text"):
        body += "\n" + _details("Guard tree (text)", _pre(compile_["guards_text"]))
    return _details(f"Guards ({len(guards)})", body, cls="tcx-sub tcx-guards")


def symbols_block(compile_: Data) -> str:
    symbols = compile_.get("symbols") or []
    symbolic = compile_.get("symbolic_guards") or []
    if not symbols and not symbolic:
        return ""
    body = _dict_table(symbols, "tcx-symbols-table") if symbols else ""
    if symbolic:
        body += "<p>Symbolic guards:</p>" + _dict_table(symbolic, "tcx-symbolic-guards-table")
    return _details(f"Symbols ({len(symbols)})", body, cls="tcx-sub tcx-symbols")
