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
            ]
            for r in (group or [])
            if isinstance(r, dict)
        ]
        parts.append(
            f"<p>Recompile #{i}:</p>"
            + _table(
                ["cached compile", "failed guard", "expected", "actual"],
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


def guards_block(compile_: Data) -> str:
    guards = compile_.get("guards") or []
    if not guards and not compile_.get("guards_text"):
        return ""
    rows = [
        [
            _e(g.get("type")),
            _c(g.get("source")),
            _c(g.get("expression")),
            _c(g.get("user_code"))
            + ("<br>" if g.get("user_code") else "")
            + _location_with_code(g.get("user_location")),
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
