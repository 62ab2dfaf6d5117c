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
    aot_id = aot["id"] if aot else None
    lines = code.splitlines()
    kernels, kernel_lines = _kernel_definitions(code, lines)
    wrapper = _Wrapper(code, lines, kernels)
    wrapper.read(kernel_lines)
    for kernel in kernels:  # the functions launching it; none where only call() does
        launched_in = wrapper.scopes.get(kernel["name"], {None})
        kernel["subgraphs"] = (
            [] if launched_in == {None} else sorted(launched_in, key=lambda name: name or "")
        )
    every = kernels + wrapper.externs
    for kernel, label in zip(every, kernel_labels([k["name"] for k in every])):
        kernel["label"] = label
    return {
        "aot_id": aot_id,
        "kind": output_kind(aot_id),
        "kernels": every,
        "subgraph_calls": wrapper.subgraph_calls,
        "checks": wrapper.checks,
    }


def _kernel_definitions(code: str, lines: list[str]) -> tuple[list[dict[str, Any]], set[int]]:
    """The kernels the module defines, and the lines inside their definitions (not wrapper
    code)."""
    kernels = []
    kernel_lines: set[int] = set()
    for m in _KERNEL_DEF.finditer(code):
        line_no = code.count("\n", 0, m.start())
        source, end = _kernel_source(code, m.end())
        kernel_lines.update(range(line_no, code.count("\n", 0, end) + 1))
        comments = _describe_comments(_comment_block(lines, line_no))
        kind, triton_kind = _kernel_kind(m["flavour"], source)
        kernels.append(
            {
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
        )
    return kernels, kernel_lines


def _kernel_kind(flavour: str, source: str) -> tuple[str, str | None]:
    """(kind, triton_kind) of a kernel ``async_compile.<flavour>`` defines."""
    if flavour != "triton":
        return ("cpp" if flavour.startswith("cpp") else flavour), None
    kind_match = _TRITON_KIND.search(source)
    return "triton", (
        TRITON_KINDS.get(kind_match["kind"], kind_match["kind"]) if kind_match else None
    )


class _Wrapper:
    """One pass over the wrapper code: launches, kernel calls and extern calls with their
    comments, wherever they are (``call()``, or the ``partition_N()`` functions of a
    CUDA-graph-partitioned wrapper), the subgraph calls and the runtime checks.

    A provenance handle names its kernel; one naming no kernel of this module belongs to the
    next wrapper statement that calls what it names. A nested compile region's subgraph is a
    function of its own (``def repeated_subgraph0(args):``) that call() calls once per
    invoke_subgraph node; a kernel launched there is scoped to it (``scopes``: the functions
    launching each kernel, None for call())."""

    def __init__(self, code: str, lines: list[str], kernels: list[dict[str, Any]]):
        self.lines = lines
        self.by_name = {kernel["name"]: kernel for kernel in kernels}
        self.subgraphs = (
            set(re.findall(r"^def (\w+)\(args\):$", code, re.M))  # not partition_N():
            & set(re.findall(r"^ +\w+ = (\w+)\(\1_args\)$", code, re.M))
        )  # call() calls them so
        self.scope: str | None = None
        self.scopes: dict[str, set[str | None]] = {}  # kernel -> the functions launching it
        self.pending: list[str] = []  # handles naming an extern call not reached yet
        self.externs: list[dict[str, Any]] = []
        self.subgraph_calls: list[dict[str, Any]] = []
        self.checks: list[dict[str, Any]] = []

    def read(self, kernel_lines: set[int]) -> None:
        for index, line in enumerate(self.lines):
            if index in kernel_lines:
                continue
            if not line.startswith(" "):
                if top := _TOP_DEF.match(line):
                    self.scope = top["def"] if top["def"] in self.subgraphs else None
                continue
            stripped = line.strip()
            if not (
                self.check(index, stripped)
                or self.subgraph_call(index, stripped)
                or self.comment(stripped)
                or self.launch(index, stripped)
            ):
                self.extern(index, stripped)

    def check(self, index: int, stripped: str) -> bool:
        if (
            (check := _CHECK.match(stripped))
            and index + 1 < len(self.lines)
            and (raised := _CHECK_RAISE.match(self.lines[index + 1].strip()))
        ):
            self.checks.append(
                {
                    "expr": ast.literal_eval(raised["msg"]),
                    "line": index + 1,
                    "condition": check["cond"],
                }
            )
            return True
        return False

    def subgraph_call(self, index: int, stripped: str) -> bool:
        if (called := _SUBGRAPH_CALL.match(stripped)) and called["name"] in self.subgraphs:
            self.subgraph_calls.append(
                {"subgraph": called["name"], "line": index + 1, "call": stripped, "node": None}
            )
            return True
        return False

    def comment(self, stripped: str) -> bool:
        if not stripped.startswith("#"):
            return False
        if m := _HANDLE.search(stripped):
            named = m["key"].rpartition(":")[0]
            if named in self.by_name:
                self.by_name[named]["handles"].append(m["key"])
            else:
                self.pending.append(m["key"])
        return True

    def launch(self, index: int, stripped: str) -> bool:
        launched = _LAUNCH.match(stripped)
        if not launched or launched["name"] not in self.by_name:
            return False
        kernel = self.by_name[launched["name"]]
        comments = _describe_comments(_comment_block(self.lines, index))
        kernel["launches"] += 1
        self.scopes.setdefault(kernel["name"], set()).add(self.scope)
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
        return True

    def extern(self, index: int, stripped: str) -> None:
        """An extern or ATen call of the wrapper, named by its statement or by the pending
        provenance handles naming what it calls."""
        extern = _EXTERN_CALL.match(stripped)
        target = extern["target"] if extern else None
        handles = [
            key
            for key in self.pending
            if key.rpartition(":")[0] + "(" in stripped
            and (target is None or key.rpartition(":")[0] == target)
        ]
        if target is None and handles:
            target = handles[0].rpartition(":")[0]
        if target is None:
            return
        self.pending = [key for key in self.pending if key not in handles]
        comments = _describe_comments(_comment_block(self.lines, index))
        self.externs.append(
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
                "subgraphs": [self.scope] if self.scope else [],
            }
        )
