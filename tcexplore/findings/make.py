"""The shape of one finding, and the links (evidence) both renderers turn into links."""

from __future__ import annotations

from typing import Any

from .user_terms import in_user_words

Data = dict[str, Any]

SEVERITIES = ("error", "warning", "info", "ok")


def finding(
    kind: str,
    severity: str,
    title: str,
    *,
    count: int = 1,
    locations: list[Data] | None = None,
    evidence: list[Data] | None = None,
    advice: str | None = None,
    details: list[str] | None = None,
    **extra: Any,
) -> Data:
    """One finding; what it says (title, advice, details) names a function Dynamo
    generated as the user knows it (user_terms.in_user_words), whichever kind wrote it."""
    assert severity in SEVERITIES, severity
    return {
        "kind": kind,
        "severity": severity,
        "title": in_user_words(title),
        "count": count,
        "locations": locations or [],
        "evidence": evidence or [],
        "advice": in_user_words(advice),
        "details": [in_user_words(d) for d in details or []],
        **extra,
    }


def location(where: Any) -> Data | None:
    """A {file, line, function} from any record that has them (a frame, a site)."""
    if not isinstance(where, dict) or not where.get("file"):
        return None
    line = where.get("line")
    return {
        "file": where["file"],
        "line": line if isinstance(line, int) else None,
        "function": where.get("function"),
    }


def locations(wheres: list[Any]) -> list[Data]:
    out: list[Data] = []
    for where in wheres:
        loc = location(where)
        if loc is not None and loc not in out:
            out.append(loc)
    return out


def compile_link(compile_id: Any, label: str | None = None) -> Data:
    """A link to a compile (the extension's Guards tab, the report's compile section)."""
    return {"tab": "guards", "compile": compile_id, "label": label or f"compile {compile_id}"}


def source_link(where: Data, label: str | None = None) -> Data | None:
    if not where.get("file") or not isinstance(where.get("line"), int):
        return None
    return {
        "tab": "source",
        "file": where["file"],
        "line": where["line"],
        "label": label or f"line {where['line']}",
    }


def tab_link(tab: str, label: str) -> Data:
    return {"tab": tab, "label": label}


def short_where(file: Any, line: Any, labels: dict[str, str]) -> str:
    """``cell [5], line 3`` for a notebook cell, else ``name.py:3`` (the views' ``where``;
    the location keeps the full path)."""
    label = labels.get(file) if isinstance(file, str) else None
    if label:
        return label if line is None else f"{label}, line {line}"
    name = str(file or "?").replace("\\", "/").rsplit("/", 1)[-1]
    return name + ("" if line is None else f":{line}")
