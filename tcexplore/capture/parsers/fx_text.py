"""Read an FX graph from the readable module text torch prints into the trace.

torch emits graphs as ``GraphModule.print_readable()`` text: a ``forward`` whose
signature lists the placeholders with their ``"f32[4, 8][8, 1]cpu"`` annotations,
one statement per node, ``# File: path:line in fn, code: ...`` comments naming the
user line that produced the following nodes, and a ``return``. Only the top-level
``forward`` becomes nodes; nested submodules (higher-order ops) stay in the text, except
the subgraphs ``invoke_subgraph`` calls (``torch.compiler.nested_compile_region``): each is
read once, with the nodes that invoke it.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from typing import Any

MAX_NODES = 20_000
INVOKE_SUBGRAPH = "torch.ops.higher_order.invoke_subgraph"

# Under activation checkpointing torch prefixes the region: "# ac_graph_id: 2 - PREFER_RECOMPUTE File: ...".
_FILE_COMMENT = re.compile(
    r"^#(?: ac_graph_id: \S+ - \w+)? File: (?P<file>.+?):(?P<line>\d+) in (?P<fn>[^,]+), code: (?P<code>.*)$"
)
_PARAM = re.compile(r'(?P<name>\w+)(?:: "(?P<ann>[^"]*)")?')
_ASSIGN = re.compile(r'^(?P<name>\w+)(?:: "(?P<ann>[^"]*)")? = (?P<rhs>.+)$')
_TENSOR_ANN = re.compile(
    r"^(?P<dtype>[a-z]+\d*)\[(?P<shape>[^\]]*)\](?:\[(?P<stride>[^\]]*)\])?(?P<device>[a-z]+(?::\d+)?)?$"
)
_IDENT = re.compile(r"[A-Za-z_]\w*")
# What in a call's argument text is not a value: quoted strings and keyword names.
_NOT_A_VALUE = re.compile(r"'[^']*'|\"[^\"]*\"|\b\w+ = ")
_CALL = re.compile(r"^(?P<target>[\w.]+)\(")
_BINARY = re.compile(r"^[\w.]+ (?P<op>\*\*|//|<<|>>|==|!=|<=|>=|[-+*/@%&|^<>]) [\w.\-]+$")
_OPERATORS = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "truediv",
    "//": "floordiv",
    "%": "mod",
    "**": "pow",
    "@": "matmul",
    "&": "and_",
    "|": "or_",
    "^": "xor",
    "<<": "lshift",
    ">>": "rshift",
    "==": "eq",
    "!=": "ne",
    "<": "lt",
    "<=": "le",
    ">": "gt",
    ">=": "ge",
}

DTYPE_NAMES = {
    "f16": "float16",
    "bf16": "bfloat16",
    "f32": "float32",
    "f64": "float64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "b8": "bool",
    "c64": "complex64",
    "c128": "complex128",
}


def parse_annotation(ann: str | None) -> dict[str, Any] | None:
    """``"f32[s77, 8][8, 1]cpu"`` -> dtype/shape/stride/device; ``Sym(s77)`` -> symint.
    Nodes with the same annotation share one (read-only) dict: a big graph repeats a few
    shapes thousands of times."""
    return _annotation(ann) if ann else None


@lru_cache(maxsize=4096)
def _annotation(ann: str) -> dict[str, Any]:
    if ann.startswith("Sym(") and ann.endswith(")"):
        return {"kind": "symint", "expr": ann[4:-1]}
    m = _TENSOR_ANN.match(ann)
    if not m:
        return {"kind": "other", "text": ann}
    split = lambda s: [p.strip() for p in s.split(",") if p.strip()] if s else []  # noqa: E731
    return {
        "kind": "tensor",
        "dtype": DTYPE_NAMES.get(m["dtype"], m["dtype"]),
        "shape": split(m["shape"]),
        "stride": split(m["stride"]),
        "device": m["device"] or None,
    }


def _split_statement(line: str) -> str:
    """Drop the trailing ``;  a = b = None`` liveness bookkeeping torch appends."""
    head, sep, tail = line.partition(";  ")
    return head if sep and tail.endswith("= None") else line


def _classify(rhs: str, names: dict[str, Any]) -> tuple[str, str]:
    """(op, target) of a statement's right-hand side."""
    call = _CALL.match(rhs)
    if call:
        target = call["target"]
        owner, _, method = target.rpartition(".")
        if owner in names:
            return "call_method", method
        if owner.startswith("self"):
            return "call_module" if not method.startswith("_") else "get_attr", target
        return "call_function", target
    if rhs.startswith("self."):
        return "get_attr", rhs
    if re.match(r"^\w+\[\d+\]$", rhs):
        return "call_function", "operator.getitem"
    if rhs in names:
        return "alias", rhs
    binary = _BINARY.match(rhs)
    if binary:
        return "call_function", f"operator.{_OPERATORS[binary['op']]}"
    return "call_function", rhs


def parse_graph(text: str, max_nodes: int = MAX_NODES) -> dict[str, Any]:
    """Nodes of the top-level forward, with users, tensor metadata and user source lines;
    with ``subgraphs`` where ``invoke_subgraph`` nodes call nested compile regions."""
    lines = text.splitlines()
    graph = _parse_forward(lines, 0, max_nodes)
    subgraphs = _invoked_subgraphs(lines, graph["nodes"], max_nodes)
    if subgraphs:
        graph["subgraphs"] = subgraphs
    return graph


def _invoked_subgraphs(
    lines: list[str], nodes: list[dict[str, Any]], max_nodes: int
) -> list[dict[str, Any]]:
    """Each subgraph an ``invoke_subgraph`` node calls, once (torch prints it once as a
    nested class of the graph module), with the nodes that invoke it, in order."""
    by_name = {n["name"]: n for n in nodes}
    invoked: dict[str, list[str]] = {}
    for node in nodes:
        if node["target"] == INVOKE_SUBGRAPH and node["args"]:
            held = by_name.get(node["args"][0])
            if held and held["op"] == "get_attr":
                invoked.setdefault(held["target"].removeprefix("self."), []).append(node["name"])
    subgraphs = []
    for name, invokers in invoked.items():
        start = next(
            (
                i
                for i, line in enumerate(lines)
                if line.strip() == f"class {name}(torch.nn.Module):"
            ),
            None,
        )
        if start is None:
            continue
        graph = _parse_forward(lines, start + 1, max_nodes)
        subgraphs.append({"name": name, "invoked_by": invokers, **graph})
    return subgraphs


def _parse_forward(lines: list[str], i: int, max_nodes: int) -> dict[str, Any]:
    """The nodes of the first ``forward`` at or after line ``i``."""
    while i < len(lines) and not lines[i].lstrip().startswith("def forward("):
        i += 1
    if i == len(lines):
        return {"nodes": [], "nodes_truncated": False}
    nodes, i = _placeholders(lines, i)
    by_name = {node["name"]: node for node in nodes}
    truncated = _read_body(lines, i + 1, nodes, by_name, max_nodes)
    for node in nodes:
        add_module(node)
    return {"nodes": nodes, "nodes_truncated": truncated}


def _node(
    name: str,
    op: str,
    target: str,
    args: list[str],
    meta: dict[str, Any] | None = None,
    source: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "name": name,
        "op": op,
        "target": target,
        "args": args,
        "users": [],
        "meta": meta,
        "source": source,
    }


def _placeholders(lines: list[str], i: int) -> tuple[list[dict[str, Any]], int]:
    """The placeholders of the signature starting at line ``i`` (possibly spread over several
    lines, it ends with "):"), and the index of its last line."""
    signature = []
    while i < len(lines):
        code_part = lines[i].split("#", 1)[0].strip()
        signature.append(code_part)
        if code_part.endswith("):"):
            break
        i += 1
    sig_text = " ".join(signature)
    sig_text = sig_text[sig_text.index("(") + 1 : sig_text.rindex(")")]
    nodes = []
    for part in _split_params(sig_text):
        m = _PARAM.match(part)
        if m and m["name"] != "self":
            nodes.append(_node(m["name"], "placeholder", m["name"], [], parse_annotation(m["ann"])))
    return nodes, i


def _read_body(
    lines: list[str],
    i: int,
    nodes: list[dict[str, Any]],
    by_name: dict[str, dict[str, Any]],
    max_nodes: int,
) -> bool:
    """The body's nodes from line ``i`` to its ``return`` (the output node) into ``nodes``;
    whether statements past ``max_nodes`` nodes were left out."""
    truncated = False
    body_indent = None
    source: dict[str, Any] | None = None
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        i += 1
        if not stripped:
            continue
        indent = len(raw) - len(raw.lstrip())
        if body_indent is None:
            body_indent = indent
        if indent < body_indent:
            break  # end of forward
        if indent > body_indent:
            continue  # continuation lines (multi-line return) are handled with the return
        if stripped.startswith("#"):
            source = _source(stripped, source)
            continue
        if stripped.startswith("return"):
            output = _output(lines, i, stripped, by_name)
            _link(output, by_name)
            nodes.append(output)
            break
        m = _ASSIGN.match(_split_statement(stripped))
        if not m:
            continue
        if len(nodes) >= max_nodes:
            truncated = True
            continue
        _add_statement(m, source, nodes, by_name)
    return truncated


def _source(comment: str, source: dict[str, Any] | None) -> dict[str, Any] | None:
    """The user line of the nodes after ``comment``: the one a ``# File:`` comment names,
    none after ``# No stacktrace found``, ``source`` still after any other comment."""
    fm = _FILE_COMMENT.match(comment)
    if fm:
        return {
            "file": fm["file"],
            "line": int(fm["line"]),
            "function": fm["fn"],
            "code": fm["code"],
        }
    return None if comment.startswith("# No stacktrace found") else source


def _output(
    lines: list[str], i: int, stripped: str, by_name: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """The output node of the ``return`` statement ``stripped``, continued from line ``i``."""
    ret = stripped[len("return") :]
    while i < len(lines) and ret.count("(") > ret.count(")"):
        ret += " " + lines[i].split("#", 1)[0].strip()
        i += 1
    return _node("output", "output", "output", [n for n in _IDENT.findall(ret) if n in by_name])


def _add_statement(
    m: re.Match[str],
    source: dict[str, Any] | None,
    nodes: list[dict[str, Any]],
    by_name: dict[str, dict[str, Any]],
) -> None:
    """The node of one assignment statement, linked to the nodes it uses."""
    rhs = m["rhs"]
    op, target = _classify(rhs, by_name)
    if op == "alias":
        # Dynamo's `l_x_ = L_x_` renames a placeholder; keep one node under the new name.
        node = by_name.pop(rhs)
        node["name"] = m["name"]
        by_name[m["name"]] = node
        return
    args = [
        by_name[n]["name"]
        for n in dict.fromkeys(_IDENT.findall(_argument_text(rhs)))
        if n in by_name
    ]
    node = _node(m["name"], op, sys.intern(target), args, parse_annotation(m["ann"]), source)
    node["code"] = rhs
    _link(node, by_name)
    nodes.append(node)
    by_name[node["name"]] = node


# Dynamo names a parameter or buffer input after the module holding it:
# l_self_modules_blocks_modules_0_modules_attn_parameters_weight_ is blocks.0.attn's weight.
_MODULE_INPUT = re.compile(r"^l_+self_+(?:modules_)?(.*?)_(?:parameters|buffers)_")


def add_module(node: dict[str, Any]) -> None:
    """An input or attribute node named after a module's parameter or buffer gets that
    module's path (``module``: ["blocks", "0", "attn"], [] for the root), which the graph
    views group nodes by."""
    if node.get("op") in ("placeholder", "get_attr"):
        found = _MODULE_INPUT.match(str(node.get("name")))
        if found:
            node["module"] = found[1].split("_modules_") if found[1] else []


def _argument_text(rhs: str) -> str:
    """The part of a statement naming its inputs: for a call, the receiver and the arguments
    (``torch.ops.aten.sub.Tensor(a, b)`` must not read as using a node named ``sub``)."""
    call = _CALL.match(rhs)
    if not call:
        return rhs
    owner = call["target"].rpartition(".")[0]
    receiver = owner if owner.isidentifier() else ""  # ``x.view(...)``: a method of node x
    return receiver + " " + _NOT_A_VALUE.sub(" ", rhs[call.end() :])


def _link(node: dict[str, Any], by_name: dict[str, dict[str, Any]]) -> None:
    for arg in node["args"]:
        users = by_name[arg]["users"]
        if node["name"] not in users:
            users.append(node["name"])


def _split_params(sig: str) -> list[str]:
    """Split a signature at top-level commas (annotations contain commas inside quotes)."""
    parts, depth, quoted, current = [], 0, False, []
    for ch in sig:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "([":
            depth += 1
        elif not quoted and ch in ")]":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]
