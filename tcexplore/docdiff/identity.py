"""What makes two compiles, nodes, guards and kernels the same, and what is noise.

Two runs of one program must diff empty, so nothing that depends on the path, the
process or the run may count as a difference:

- **Compiles** are the same frame (function, file *name*, line) and the same compile of
  it as the document counts them (``frame_compile_index``: 0 for the frame's first
  compile in the document, whether under compiled autograd or not). torch's own numbers
  count over the whole process: a function explored twice in one process compiles as
  0/0, then 0/1, and the frame *number* is the order frames were first seen, so neither
  is identity; a document written before ``frame_compile_index`` falls back to torch's
  ``frame_compile_id`` and compiled-autograd id. Directories and a notebook cell's
  temporary file name (a hash of the cell: any edit renames it) are not identity either.
  A frame that moved (a line inserted above it) still pairs, by function and file name,
  with the line numbers masked in a resume function's name (``torch_dynamo_resume_in_f_at_12``
  embeds its break's line). Last, a compile left unpaired pairs by function and compile
  number alone, across files (one program kept in two scripts): the pair carries a ``file``
  change, and within it the two frames' files count as one, so nodes compare by the code
  of their lines.
- **Nodes** are matched by op, target and user line, in graph order, never by name: FX
  renumbers names (``add_1`` becomes ``add_2`` when an op is added upstream), and a
  placeholder's target is its name, so its "_N" suffix is dropped. The user line is
  compared by its text (and file name); the line *number* only where no text was
  recorded, so an inserted comment moves lines without changing nodes.
- **Guards** compare by type, source and expression, with object ids (``___check_obj_id``,
  ``___check_type_id``), ``0x`` addresses and the counters of the globals Dynamo installs
  (``G['__builtins_dict___7']``) masked: all are per process.
- **Kernels** compare by source with their own name masked (it embeds the fused ops and a
  counter), long hex hashes masked, and for extern calls the buffer numbers masked and
  graph names read through the node alignment. The fused-node sets are compared through
  the node alignment too.
- Never compared: timestamps, compile times, cache keys and kernel paths, the output
  code's wrapper text, node names, the document's ``id``.

Spelled step for step like ``extension/src/model/identity.ts``; the masking itself is
capture's (capture/parsers/identity.py), which stores the masked forms in the document for
the extension's diff: neither diff reads torch's text apart on its own.
"""

from __future__ import annotations

from typing import Any

from ..capture.parsers.identity import (
    kernel_source,
    masked_guard,
    name_tokens,
    placeholder_target,
    without_lines,
)
from ..document import SUMMARY_KEYS

Data = dict[str, Any]


def text(value: Any) -> str:
    """A key part: ``None`` is empty, anything else its string (ints print alike in TS)."""
    return "" if value is None else str(value)


def file_id(file: Any, labels: dict[str, str]) -> str:
    """A file as identity: its name without directories; a labelled notebook cell is "cell"."""
    if not isinstance(file, str) or not file:
        return ""
    if file in labels:
        return "cell"
    return file.replace("\\", "/").split("/")[-1]


def source_labels(doc: Data) -> dict[str, str]:
    explore = doc.get("explore")
    labels = explore.get("source_labels") if isinstance(explore, dict) else None
    return labels if isinstance(labels, dict) else {}


def compile_keys(record: Data, labels: dict[str, str]) -> tuple[str, str, str]:
    """(exact, loose, across files) identity of a compile: loose leaves the frame's line
    out (and a resume function's lines), across files its file too."""
    frame = record.get("frame") or {}
    function = text(frame.get("function"))
    which = _which_compile(record)
    exact = "\x00".join(
        [function, file_id(frame.get("file"), labels), text(frame.get("line")), which]
    )
    unmoved = without_lines(function)
    return (
        exact,
        "\x00".join([unmoved, file_id(frame.get("file"), labels), which]),
        f"{unmoved}\x00{which}",
    )


def _which_compile(record: Data) -> str:
    """Which compile of its frame: the document's count, else (an older document) torch's."""
    index = record.get("frame_compile_index")
    if isinstance(index, int):
        return "\x00".join(["" if record.get("compiled_autograd_id") is None else "!", str(index)])
    return "\x00".join(
        [text(record.get("compiled_autograd_id")), text(record.get("frame_compile_id"))]
    )


def frame_file(record: Data) -> Any:
    return (record.get("frame") or {}).get("file")


def as_one_file(record: Data, labels: dict[str, str]) -> dict[str, str]:
    """``labels`` with the compile's frame file counted as labelled: within a pair across
    files both frames' files are then the same file to ``file_id``."""
    file = frame_file(record)
    return {**labels, file: "paired"} if isinstance(file, str) and file else labels


def node_target(node: Data) -> str:
    """A placeholder's target is its name (AOT graphs name saved tensors after forward
    nodes): without FX's "_N" numbering. Other targets are ops, kept whole."""
    target = text(node.get("target"))
    return placeholder_target(target) if node.get("op") == "placeholder" else target


def node_key(node: Data, labels: dict[str, str]) -> str:
    """What the alignment matches: op, target and user line."""
    return "\x00".join(
        [text(node.get("op")), node_target(node), source_id(node.get("source"), labels)]
    )


def source_id(source: Any, labels: dict[str, str]) -> str:
    if not isinstance(source, dict):
        return ""
    where = file_id(source.get("file"), labels)
    code = source.get("code")
    if isinstance(code, str) and code:
        return f"{where}\x00{code}"
    return f"{where}\x00{text(source.get('line'))}"


def guard_key(guard: Data) -> str:
    source, expression = masked_guard(text(guard.get("source")), text(guard.get("expression")))
    return "\x00".join([text(guard.get("type")), source, expression])


def kernel_text(kernel: Data, rename: dict[str, str] | None = None) -> str:
    """The kernel's source as compared; ``rename`` maps this side's graph names to the
    other side's (extern calls name graph values)."""
    source = kernel_source(kernel)
    if kernel.get("kind") == "extern" and rename:
        source = "".join(
            rename.get(t["text"], t["text"]) if t["name"] else t["text"]
            for t in name_tokens(source)
        )
    return source


def document_key(doc: Data) -> str:
    """Which document this is, to find its explorer in open notebooks: its ``id``, or for
    documents written before ids, its creation time and counts."""
    if isinstance(doc.get("id"), str) and doc["id"]:
        return doc["id"]
    summary = doc.get("summary") or {}
    return text(doc.get("created")) + "|" + ",".join(text(summary.get(k)) for k in SUMMARY_KEYS)
