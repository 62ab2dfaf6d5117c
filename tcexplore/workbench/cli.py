"""``tcexplore repro DOC.json [KERNEL] [-o FILE] [--launch N]``."""

from __future__ import annotations

import sys

from ..document import DocumentError, read_document
from ..files.output import OutputError, unwritable, write_text
from .kernel import AmbiguousKernel, all_kernels, find_kernel
from .wrapper import WorkbenchError


def kernel_table(data: dict) -> str:
    """One line per kernel: its full name, kind and launches (what KERNEL may name)."""
    lines = []
    for kernel in all_kernels(data):
        kind = f"{kernel.kind} ({kernel.triton_kind})" if kernel.triton_kind else kernel.kind
        launches = f", {len(kernel.calls)} launches" if len(kernel.calls) > 1 else ""
        lines.append(f"{kernel.qualified_name}  {kind}{launches}")
    return "\n".join(lines) if lines else "(no kernels in this document)"


def run_repro(document: str, name: str | None, out: str | None, launch: int) -> int:
    if problem := unwritable(out):
        print(f"tcexplore repro: {problem}", file=sys.stderr)
        return 2
    try:
        data = read_document(document)
        if name is None:
            print(kernel_table(data))
            return 0
        text = find_kernel(data, name).reproducer(launch)
    except AmbiguousKernel as exc:
        print(
            f"tcexplore repro: {exc.message(f'(e.g. tcexplore repro {document} {exc.candidates[0]})')}",
            file=sys.stderr,
        )
        return 2
    except (OSError, DocumentError, WorkbenchError) as exc:
        print(f"tcexplore repro: {exc}", file=sys.stderr)
        return 2
    if out:
        try:
            write_text(out, text)
        except OutputError as exc:
            print(f"tcexplore repro: {exc}", file=sys.stderr)
            return 2
        print(f"tcexplore repro: wrote {out}; run it with: python {out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
