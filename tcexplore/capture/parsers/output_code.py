"""Split Inductor's output-code module into its kernels and their call sites.

The module torch emits (``inductor_output_code``) defines each generated kernel as
``name = async_compile.<flavour>(..., '''source''')`` and launches kernels and extern
calls from ``call()`` (a kernel may be launched from several lines: Inductor defines
identical code once; each launch is a ``launch_sites`` entry with its line of the module),
each launch preceded by comments that Inductor writes:
``# Topologically Sorted Source Nodes: [...], Original ATen: [...]`` and, with
provenance tracking, ``# [Provenance debug handles] name:N``. The handle names what runs:
a kernel defined in the module, or an ATen/extern call in the wrapper (e.g. the RNG seeds'
``aten.randint.low_out(...)``), the next statement that calls it.
"""

from __future__ import annotations

import ast
import re
from typing import Any

_AOT_ID = re.compile(r"^# AOT ID: \['(?P<id>[^']*)'\]", re.M)
_KERNEL_DEF = re.compile(
    r"^(?P<name>\w+) = async_compile\.(?P<flavour>cpp_pybinding|cpp|triton|cuda|halide|rocm)\(",
    re.M,
)
_SOURCE_NODES = re.compile(
    r"Source Nodes: \[(?P<nodes>[^\]]*)\], Original ATen: \[(?P<aten>[^\]]*)\]"
)
_HANDLE = re.compile(r"\[Provenance debug handles\] (?P<key>[\w.]+:\d+)")
_FRAGMENT_NODE = re.compile(r"^#\s+%(?P<name>\w+) : .*= (?P<what>\w+)\[")
_TRITON_KIND = re.compile(r"@triton_heuristics\.(?P<kind>\w+)\(")
# Launch preparation Inductor writes between a launch's comments and the launch itself:
# the stream lookup, and (dynamic shapes) the numel arguments, ``<kernel>_xnumel = 2*s27``.
_LAUNCH_PREP = re.compile(r"^(?:stream\w* = get_raw_stream\(\d+\)|\w+numel = .+)$")
_LAUNCH = re.compile(r"^(?P<name>\w+)(?:\.run)?\(")
_SIZE_HINTS = re.compile(r"size_hints=(?P<hints>\{[^}]*\}|\[[^\]]*\])")
_SUBGRAPH_CALL = re.compile(r"^\w+ = (?P<name>\w+)\((?P=name)_args\)$")
# A runtime assert Inductor writes for a deferred assertion on unbacked symbols (ir.AssertScalar).
_CHECK = re.compile(r"^if not \((?P<cond>.+)\):$")
_CHECK_RAISE = re.compile(r"^raise RuntimeError\((?P<msg>'[^']*'|\"[^\"]*\")\)$")
_TOP_DEF = re.compile(r"^(?:def (?P<def>\w+)\(|class \w+)")
_EXTERN_CALL = re.compile(
    r"^(?:\w+ = )?(?P<target>extern_kernels\.\w+|torch\.ops\.\w+\.\w+\.\w+|aten\.\w+\.\w+)\("
)

TRITON_KINDS = {
    "pointwise": "pointwise",
    "reduction": "reduction",
    "persistent_reduction": "persistent_reduction",
    "template": "template",
    "foreach": "foreach",
    "user_autotune": "user",
    "split_scan": "scan",
    "cooperative_reduction": "reduction",
    "mix_order_reduction": "reduction",
}


def output_kind(aot_id: str | None) -> str:
    """``0_forward`` -> ``forward``; Inductor names the graph it compiled in this header."""
    if not aot_id:
        return "unknown"
    for kind in ("forward", "backward", "inference"):
        if aot_id.endswith(kind):
            return kind
    return "unknown"


def _comment_block(lines: list[str], index: int) -> list[str]:
    """The contiguous comment lines directly above ``lines[index]`` (launch preparation
    between the comments and a Triton launch is stepped over)."""
    block = []
    j = index - 1
    while j >= 0 and (lines[j].lstrip().startswith("#") or _LAUNCH_PREP.match(lines[j].strip())):
        if lines[j].lstrip().startswith("#"):
            block.append(lines[j].strip())
        j -= 1
    return block[::-1]


def _size_hints(source: str) -> dict[str, Any] | None:
    """The ``size_hints`` Inductor passes to a Triton kernel's heuristics decorator."""
    m = _SIZE_HINTS.search(source)
    if not m:
        return None
    try:
        value = ast.literal_eval(m["hints"])
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, dict) else {"hints": value}


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def _describe_comments(comments: list[str]) -> dict[str, Any]:
    info: dict[str, Any] = {"source_nodes": [], "aten_ops": [], "fragment_nodes": [], "handles": []}
    for line in comments:
        if m := _SOURCE_NODES.search(line):
            info["source_nodes"] = _names(m["nodes"])
            info["aten_ops"] = _names(m["aten"])
        if m := _HANDLE.search(line):
            info["handles"].append(m["key"])
        if (m := _FRAGMENT_NODE.match(line)) and m["what"] != "PlaceHolder":
            info["fragment_nodes"].append(m["name"])
    return info


def _kernel_source(code: str, start: int) -> tuple[str, int]:
    """The triple-quoted source that follows a kernel definition at ``start``."""
    open_at = code.find("'''", start)
    if open_at < 0:
        return "", start
    close_at = code.find("'''", open_at + 3)
    if close_at < 0:
        return code[open_at + 3 :], len(code)
    return code[open_at + 3 : close_at], close_at + 3


def kernel_labels(names: list[str]) -> list[str]:
    """Each kernel of one output code by its name, numbered in order where the name repeats
    (an extern call made several times: ``extern_kernels.mm#2``)."""
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if names.count(name) == 1 else f"{name}#{seen[name]}")
    return labels


def parse_output_code(code: str) -> dict[str, Any]:
    """Kernels (definitions + launches) and extern calls of one output-code module."""
    aot = _AOT_ID.search(code)
    lines = code.splitlines()
    line_starts = [0]
    for line in lines:
        line_starts.append(line_starts[-1] + len(line) + 1)

    kernels: list[dict[str, Any]] = []
    by_name: dict[str, dict[str, Any]] = {}
    kernel_lines: set[int] = set()  # lines inside kernel definitions, not wrapper code
    for m in _KERNEL_DEF.finditer(code):
        line_no = code.count("\n", 0, m.start())
        source, end = _kernel_source(code, m.end())
        kernel_lines.update(range(line_no, code.count("\n", 0, end) + 1))
        flavour = m["flavour"]
        if flavour == "triton":
            kind_match = _TRITON_KIND.search(source)
            triton_kind = (
                TRITON_KINDS.get(kind_match["kind"], kind_match["kind"]) if kind_match else None
            )
            kind = "triton"
        else:
            kind, triton_kind = ("cpp" if flavour.startswith("cpp") else flavour), None
        comments = _describe_comments(_comment_block(lines, line_no))
        kernel = {
            "name": m["name"],
            "kind": kind,
            "triton_kind": triton_kind,
            "source": source,
            "line": line_no + 1,
            "handles": [],
            "launches": 0,
            "calls": [],
            "launch_sites": [],
            "source_nodes": comments["source_nodes"],
            "aten_ops": comments["aten_ops"],
            "fragment_nodes": comments["fragment_nodes"],
            "size_hints": _size_hints(source),
            "subgraphs": [],
        }
        kernels.append(kernel)
        by_name[kernel["name"]] = kernel

    # Launches: kernel calls and extern calls with their comments, wherever they are
    # (``call()``, or the ``partition_N()`` functions of a CUDA-graph-partitioned wrapper).
    # A provenance handle names its kernel; one naming no kernel of this module belongs to
    # the next wrapper statement that calls what it names.
    # A nested compile region's subgraph is a function of its own (``def
    # repeated_subgraph0(args):``) that call() calls once per invoke_subgraph node; a kernel
    # launched there is scoped to it (``subgraphs``: the functions launching it, None for
    # call(); empty when only call() does).
    externs: list[dict[str, Any]] = []
    subgraph_calls: list[dict[str, Any]] = []
    checks: list[dict[str, Any]] = []
    subgraphs = (
        set(re.findall(r"^def (\w+)\(args\):$", code, re.M))  # not partition_N():
        & set(re.findall(r"^ +\w+ = (\w+)\(\1_args\)$", code, re.M))
    )  # call() calls them so
    scope: str | None = None
    scopes: dict[str, set[str | None]] = {}  # kernel -> the functions launching it
    pending: list[str] = []  # handles naming an extern call not reached yet
    for index, line in enumerate(lines):
        stripped = line.strip()
        if index in kernel_lines:
            continue
        if not line.startswith(" "):
            if top := _TOP_DEF.match(line):
                scope = top["def"] if top["def"] in subgraphs else None
            continue
        if (
            (check := _CHECK.match(stripped))
            and index + 1 < len(lines)
            and (raised := _CHECK_RAISE.match(lines[index + 1].strip()))
        ):
            checks.append(
                {
                    "expr": ast.literal_eval(raised["msg"]),
                    "line": index + 1,
                    "condition": check["cond"],
                }
            )
            continue
        if (called := _SUBGRAPH_CALL.match(stripped)) and called["name"] in subgraphs:
            subgraph_calls.append(
                {"subgraph": called["name"], "line": index + 1, "call": stripped, "node": None}
            )
            continue
        if stripped.startswith("#"):
            if m := _HANDLE.search(stripped):
                named = m["key"].rpartition(":")[0]
                if named in by_name:
                    by_name[named]["handles"].append(m["key"])
                else:
                    pending.append(m["key"])
            continue
        launched = _LAUNCH.match(stripped)
        if launched and launched["name"] in by_name:
            kernel = by_name[launched["name"]]
            comments = _describe_comments(_comment_block(lines, index))
            kernel["launches"] += 1
            scopes.setdefault(kernel["name"], set()).add(scope)
            kernel["calls"].append(stripped)  # with its numel / grid arguments, as emitted
            kernel["launch_sites"].append(
                {
                    "line": index + 1,
                    "source_nodes": comments["source_nodes"],
                    "handles": [
                        h for h in comments["handles"] if h.rpartition(":")[0] == launched["name"]
                    ],
                }
            )
            kernel["source_nodes"] = kernel["source_nodes"] or comments["source_nodes"]
            kernel["aten_ops"] = kernel["aten_ops"] or comments["aten_ops"]
            continue
        extern = _EXTERN_CALL.match(stripped)
        target = extern["target"] if extern else None
        handles = [
            key
            for key in pending
            if key.rpartition(":")[0] + "(" in stripped
            and (target is None or key.rpartition(":")[0] == target)
        ]
        if target is None and handles:
            target = handles[0].rpartition(":")[0]
        if target is None:
            continue
        pending = [key for key in pending if key not in handles]
        comments = _describe_comments(_comment_block(lines, index))
        externs.append(
            {
                "name": target,
                "kind": "extern",
                "triton_kind": None,
                "source": stripped,
                "line": index + 1,
                "handles": handles,
                "launches": 1,
                "calls": [stripped],
                "launch_sites": [
                    {
                        "line": index + 1,
                        "handles": handles,
                        "source_nodes": comments["source_nodes"],
                    }
                ],
                "source_nodes": comments["source_nodes"],
                "aten_ops": comments["aten_ops"],
                "fragment_nodes": [],
                "size_hints": None,
                "subgraphs": [scope] if scope else [],
            }
        )
    for kernel in kernels:
        launched_in = scopes.get(kernel["name"], {None})
        kernel["subgraphs"] = (
            [] if launched_in == {None} else sorted(launched_in, key=lambda name: name or "")
        )
    every = kernels + externs
    for kernel, label in zip(every, kernel_labels([k["name"] for k in every])):
        kernel["label"] = label
    return {
        "aot_id": aot["id"] if aot else None,
        "kind": output_kind(aot["id"] if aot else None),
        "kernels": every,
        "subgraph_calls": subgraph_calls,
        "checks": checks,
    }
