"""Dynamic shapes in user terms: which size became dynamic (and when), which lines guard
or specialize it with torch's expression, unbacked symbols; one finding per size."""

from __future__ import annotations

import re
from typing import Any

from . import fixes
from .graph_break_audit import library_marks, source_labels
from .guard_lines import users_line
from .make import compile_link, finding, locations, source_link
from .user_terms import expression, scalar_guard, source_name, symbol_names, value_range

GUARD_LINES_ADVICE = (
    "each guarding line is a condition the compiled code checks: "
    "torch._check(...) states a fact so torch can drop a guard, and "
    "torch._dynamo.mark_unbacked(tensor, dim) keeps a size from being specialized"
)
ADVICE = (
    "to compile it dynamic from the first call (one compile, not two): "
    "torch._dynamo.mark_dynamic(tensor, dim) before the call, or torch.compile(..., "
    "dynamic=True); " + GUARD_LINES_ADVICE
)
UNBACKED_ADVICE = (
    "an unbacked size (from .item(), nonzero(), ...) has no example value: "
    "torch._check(...) / torch._check_is_size(...) on it tells torch its range"
)
SCALAR_ADVICE = (
    "an int argument that changed is traced as a symbol from its second value "
    "on (one recompile); torch.compile(..., dynamic=True) makes it symbolic from "
    "the first call, and a tensor argument is never specialized"
)
_SIZE_MISMATCH = re.compile(r"expected (\d+), actual (\d+)")
_ASSERTED = re.compile(r"Runtime assertion failed for expression (.+?) on node ")


def _changed(c: dict[str, Any], name: str, value: Any) -> dict[str, str] | None:
    """From which value to which the size changed: the recompile that made it dynamic."""
    base = name.split(".")[0]
    for failed in (g for attempt in c.get("recompile_reasons") or [] for g in attempt):
        guard = str(failed.get("guard") or "")
        scalar = scalar_guard(guard)
        if scalar and scalar[0] == name and value is not None:
            return {"from": scalar[1], "to": str(value)}
        if f"'{base}'" not in guard and base not in guard:
            continue
        if failed.get("expected") is not None and failed.get("actual") is not None:
            return {"from": str(failed["expected"]), "to": str(failed["actual"])}
        match = _SIZE_MISMATCH.search(guard)
        if match:
            return {"from": match[1], "to": match[2]}
    return None


def _in_graph(c: dict[str, Any], symbol: str) -> bool:
    """An unbacked symbol Dynamo's graph holds (``i64[u0, 1]``, ``Sym(u1)``); the ones
    torch makes again while AOTAutograd and Inductor retrace are renamed back to these."""
    text = (c.get("dynamo_graph") or {}).get("text") or ""
    return re.search(rf"\b{re.escape(symbol)}\b", text) is not None


def _runtime_asserts(c: dict[str, Any], symbol: str) -> list[dict[str, Any]]:
    """The post-grad graphs' ``_assert_scalar`` checks on ``symbol``: torch's expression,
    the user line the node came from, the wrapper line that checks it."""
    rows = []
    for output in c.get("output_codes") or []:
        index = output.get("post_grad_graph", -1)
        graphs = c.get("post_grad_graphs") or []
        graph = graphs[index] if 0 <= index < len(graphs) else {"nodes": []}
        for node in graph["nodes"]:
            asserted = _ASSERTED.search(node.get("code") or "")
            if (
                not node["target"].startswith("torch.ops.aten._assert_scalar")
                or not asserted
                or not re.search(rf"\b{re.escape(symbol)}\b", asserted[1])
            ):
                continue
            where = node.get("source") or {}
            rows.append(
                {
                    "file": where.get("file"),
                    "line": where.get("line"),
                    "function": where.get("function"),
                    "expr": asserted[1],
                    "kind": "runtime_assert",
                    "compile": c.get("id"),
                    "check": (
                        {"output": output.get("kind"), "line": node["check"]}
                        if node.get("check")
                        else None
                    ),
                }
            )
    return rows


def _row(where: dict[str, Any], expr: str, kind: str, c: dict[str, Any]) -> dict[str, Any]:
    return {
        "file": where.get("file"),
        "line": where.get("line"),
        "function": where.get("function"),
        "expr": expr,
        "kind": kind,
        "compile": c.get("id"),
    }


def _kept_guards(
    c: dict[str, Any],
    sym: dict[str, Any],
    names: dict[str, str],
    library: frozenset[str],
    labels: dict[str, str],
) -> list[dict[str, Any]]:
    """The shape guards torch kept on the symbol's source, from the compile's guard tree
    (``dynamo_cpp_guards_str``: the shape environment's guards, at its root) at the user's
    lines. torch evaluates more (``guard_added`` events) than it keeps: one evaluated while
    guards are suppressed (``[guard suppressed]``, e.g. the backward compile's stride
    checks) is never a guard, and only the tree says which were kept."""
    source = str(sym.get("source") or "")
    if not source:
        return []
    mentions = re.compile(re.escape(source) + r"(?![\w\[(.])")
    return [
        _row(g["user_location"], expression(source_name(g.get("expression")), names), "guard", c)
        for g in c.get("guards") or []
        if g.get("source") is None
        and mentions.search(str(g.get("expression") or ""))
        and users_line(g.get("user_location"), library, labels)
    ]


def _specializations(
    c: dict[str, Any],
    symbol: str,
    names: dict[str, str],
    library: frozenset[str],
    labels: dict[str, str],
) -> list[dict[str, Any]]:
    """The user's lines that made torch specialize the symbol to its value."""
    return [
        _row(g["user_location"], expression(g.get("expr"), names), "specialized", c)
        for g in c.get("symbolic_guards") or []
        if g.get("kind") == "symbolic_shape_specialization"
        and re.search(rf"\b{re.escape(symbol)}\b", str(g.get("expr") or ""))
        and users_line(g.get("user_location"), library, labels)
    ]


def shapes(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every shape symbol with a source, in user terms, and every unbacked symbol of a
    Dynamo graph with the line that made it; each with the lines that guard it (and, for
    an unbacked one, the runtime asserts that check it)."""
    out: dict[str, dict[str, Any]] = {}
    library, labels = library_marks(data), source_labels(data)
    for c in data.get("compiles") or []:
        names = symbol_names(c)
        for sym in c.get("symbols") or []:
            symbol = str(sym.get("symbol") or "")
            unbacked = bool(sym.get("unbacked"))
            if not symbol or not (sym.get("source") or (unbacked and _in_graph(c, symbol))):
                continue
            name = f"{symbol} ({c.get('id')})" if unbacked else source_name(sym["source"])
            entry = out.setdefault(
                name,
                {
                    "name": symbol if unbacked else name,
                    "symbol": symbol,
                    "range": value_range(sym.get("range")),
                    "value": sym.get("value"),
                    "compile": c.get("id"),
                    "changed": None if unbacked else _changed(c, name, sym.get("value")),
                    "unbacked": unbacked or symbol.startswith("u"),
                    "guards": [],
                },
            )
            if unbacked:
                entry["made_at"] = sym.get("user_location")
                entry["guards"].extend(_runtime_asserts(c, symbol))
            for row in _kept_guards(c, sym, names, library, labels) + _specializations(
                c, symbol, names, library, labels
            ):
                if not any(
                    g["line"] == row["line"]
                    and g["file"] == row["file"]
                    and g["expr"] == row["expr"]
                    for g in entry["guards"]
                ):
                    entry["guards"].append(row)
    for entry in out.values():  # in the order of the code (torch's tree has its own)
        entry["guards"].sort(key=lambda g: (str(g["file"] or ""), g["line"] or 0))
    return list(out.values())


def _how(guard: dict[str, Any]) -> str:
    if guard["kind"] == "specialized":
        return " (specializes it)"
    if guard["kind"] == "runtime_assert":
        check = guard.get("check")
        return (
            f" (runtime assert, {check['output']} wrapper line {check['line']})"
            if check
            else " (runtime assert)"
        )
    return ""


def _advice_and_fix(data: dict[str, Any], shape: dict[str, Any], lines: bool) -> dict[str, Any]:
    """An unbacked size: torch._check; else dynamic=True, unless it is in force for the
    size's compile (a ``%%tcompile --dynamic`` cell, compare()'s dynamic=True row): then
    only what its guarding lines call for, if any."""
    if shape["unbacked"]:
        return {
            "advice": UNBACKED_ADVICE,
            "fix": fixes.code_change("torch._check on the unbacked size: a code change"),
        }
    if not fixes.in_force(data, fixes.DYNAMIC, [shape["compile"]]):
        return {"advice": ADVICE if "." in shape["name"] else SCALAR_ADVICE, "fix": fixes.DYNAMIC}
    if not lines:
        return {"advice": None, "fix": None}
    return {
        "advice": "sizes are dynamic already; " + GUARD_LINES_ADVICE,
        "fix": fixes.code_change("the guarding lines: a code change"),
    }


def find(data: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for shape in shapes(data):
        how = (
            f" when it changed from {shape['changed']['from']} to {shape['changed']['to']}"
            if shape["changed"]
            else ""
        )
        made = shape.get("made_at")
        if made:
            title = (
                f"{shape['symbol']} is unbacked, made by line {made.get('line')}: "
                f"{made.get('code') or made.get('function')} (range {shape['range']}), "
                f"compile {shape['compile']}"
            )
        else:
            verb = "is unbacked" if shape["unbacked"] else "became dynamic"
            title = (
                f"{shape['name']} {verb} ({shape['symbol']}, range {shape['range']})"
                f"{how}, compile {shape['compile']}"
            )
        guard_lines = [g for g in shape["guards"] if g.get("file")]
        evidence = [compile_link(shape["compile"])]
        evidence += [
            link for g in guard_lines if (link := source_link(g, f"line {g['line']}: {g['expr']}"))
        ]
        evidence.append({"tab": "shapes", "label": "Shapes"})
        out.append(
            finding(
                "dynamic_shape",
                "info",
                title,
                count=max(1, len(guard_lines)),
                locations=locations(guard_lines),
                evidence=evidence,
                **_advice_and_fix(data, shape, bool(guard_lines)),
                details=[f"line {g['line']}: {g['expr']}" + _how(g) for g in guard_lines],
                shape=shape,
            )
        )
    return out
