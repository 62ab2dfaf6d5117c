"""``Kernel``: one kernel (or extern call) of a document, found by name, with its reproducer.

A kernel is named ``COMPILE:OUTPUT:NAME`` in full, e.g. ``0/0:backward:cpp_fused_mul_0``:
the compile id, the output code it belongs to (forward, backward or inference) and the name
Inductor gave it. Any unambiguous part is enough (``cpp_fused_mul_0``,
``backward:cpp_fused_mul_0``); an extern call that occurs several times in one output code
is numbered in order, ``extern_kernels.mm#2``.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from ..capture.parsers.output_code import kernel_labels
from .wrapper import WorkbenchError


@dataclass
class _Place:
    compile_id: str
    output_label: str
    output: dict[str, Any]
    index: int
    label: str  # the kernel's name, numbered when an extern call repeats

    @property
    def qualified_name(self) -> str:
        return f"{self.compile_id}:{self.output_label}:{self.label}"


def _places(data: dict[str, Any]) -> list[_Place]:
    places = []
    for record in data.get("compiles") or []:
        outputs = record.get("output_codes") or []
        kinds = [o.get("kind", "unknown") for o in outputs]
        for o_index, output in enumerate(outputs):
            kind = kinds[o_index]
            output_label = kind if kinds.count(kind) == 1 else f"{kind}{o_index}"
            labels = kernel_labels([k["name"] for k in output.get("kernels") or []])
            for k_index, label in enumerate(labels):
                places.append(_Place(record["id"], output_label, output, k_index, label))
    return places


def _parse(
    name: str, compile_id: str | None, output: str | None
) -> tuple[str | None, str | None, str]:
    parts = name.split(":")
    if len(parts) == 3:
        compile_id, output, name = parts
    elif len(parts) == 2:
        if "/" in parts[0]:
            compile_id, name = parts
        else:
            output, name = parts
    return compile_id, output, name


class AmbiguousKernel(WorkbenchError):
    """A name that fits several kernels. The message says how to name one in the caller's
    own syntax: keyword arguments from Python, a full name from ``%tkernel`` or the CLI."""

    def __init__(self, name: str, candidates: list[str]):
        self.name = name
        self.candidates = candidates
        super().__init__(self.message("(or compile=..., output=...)"))

    def message(self, how: str) -> str:
        listed = "\n  ".join(self.candidates)
        return (
            f"{self.name!r} names {len(self.candidates)} kernels; give one of these names "
            f"{how}:\n  {listed}"
        )


def find_kernel(
    data: dict[str, Any], name: str, *, compile: str | None = None, output: str | None = None
) -> Kernel:
    """The one kernel ``name`` designates; a clear error naming the candidates otherwise."""
    compile_id, output_label, label = _parse(name, compile, output)
    places = _places(data)
    matches = [
        p
        for p in places
        if (p.label == label or p.label.split("#")[0] == label)
        and compile_id in (None, p.compile_id)
        and output_label in (None, p.output_label)
    ]
    if len(matches) == 1:
        return Kernel(data, matches[0])
    if not matches:
        close = difflib.get_close_matches(label, sorted({p.label for p in places}), n=5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        known = "" if places else " (this document has no kernels)"
        raise WorkbenchError(f"no kernel {name!r}{known}{hint}")
    raise AmbiguousKernel(name, [p.qualified_name for p in matches])


def kernel_at(
    data: dict[str, Any], compile_index: int, output_index: int, kernel_index: int
) -> Kernel:
    """The kernel at these positions of ``compiles[].output_codes[].kernels[]``."""
    record = data["compiles"][compile_index]
    output = record["output_codes"][output_index]
    for place in _places(data):
        if place.output is output and place.index == kernel_index:
            return Kernel(data, place)
    raise WorkbenchError(f"compile {record['id']} has no kernel {kernel_index} in that output")


def all_kernels(data: dict[str, Any]) -> list[Kernel]:
    """Every kernel and extern call of the document, in order."""
    return [Kernel(data, place) for place in _places(data)]


class Kernel:
    """One generated kernel or extern call of a document, with what Inductor fused into it."""

    def __init__(self, data: dict[str, Any], place: _Place):
        self._data = data
        self._place = place
        self.entry: dict[str, Any] = place.output["kernels"][place.index]

    name = property(lambda self: self.entry["name"])
    kind = property(lambda self: self.entry["kind"], doc="triton, cpp or extern (...)")
    triton_kind = property(
        lambda self: self.entry.get("triton_kind"),
        doc="pointwise, reduction, persistent_reduction, template, user, ...",
    )
    source = property(lambda self: self.entry.get("source") or "")
    post_grad_nodes = property(lambda self: list(self.entry.get("post_grad_nodes") or []))
    aten_ops = property(lambda self: list(self.entry.get("aten_ops") or []))
    user_lines = property(lambda self: list(self.entry.get("user_lines") or []))
    calls = property(
        lambda self: list(self.entry.get("calls") or []),
        doc="its launch statements in the wrapper, as emitted",
    )
    compile_id = property(lambda self: self._place.compile_id)
    output_kind = property(
        lambda self: self._place.output.get("kind", "unknown"), doc="forward, backward or inference"
    )
    qualified_name = property(lambda self: self._place.qualified_name)
    custom_ops = property(
        lambda self: list(self._place.output.get("custom_ops") or []),
        doc="ops of other namespaces its output code calls, and their modules",
    )

    @property
    def output_code(self) -> str:
        """The whole output-code module this kernel was generated into."""
        output = self._place.output
        if output.get("truncated") or not output.get("text"):
            raise WorkbenchError(
                f"the output code of {self.qualified_name} is not in this document"
                + (" (it was truncated)" if output.get("truncated") else "")
            )
        return output["text"]

    def reproducer(self, launch: int = 1) -> str:
        """A standalone Python program that builds this kernel's inputs, launches it as the
        compiled module does, compares an editable copy with the original and times both.

        ``launch`` picks one of the kernel's launches (``calls``; 1 = the first) when it
        has several.
        """
        from .reproducer import build_reproducer  # noqa: PLC0415 - keeps lookups light

        return build_reproducer(self, launch, self._data.get("environment") or {})

    def __repr__(self) -> str:
        kind = f"{self.kind} ({self.triton_kind})" if self.triton_kind else self.kind
        nodes = ", ".join(self.post_grad_nodes[:6]) + (
            " ..." if len(self.post_grad_nodes) > 6 else ""
        )
        return f"<tcexplore.Kernel {self.qualified_name}: {kind}; nodes: {nodes or '-'}>"
