"""What makes two compiles, nodes, guards and kernels the same, and what is noise.

Two runs of one program must diff empty, so nothing that depends on the path, the
process or the run may count as a difference:

- **Compiles** are the same frame (function, file *name*, line) and the same compile of
  it (``frame_compile_id``, compiled-autograd id). Directories, a notebook cell's
  temporary file name (a hash of the cell: any edit renames it) and the frame *number*
  (the order frames were first seen) are not identity. A frame that moved (a line
  inserted above it) still pairs, by function, file name and compile number. Last, a
  compile left unpaired pairs by function and compile number alone, across files (one
  program kept in two scripts): the pair carries a ``file`` change, and within it the
  two frames' files count as one, so nodes compare by the code of their lines.
- **Nodes** are matched by op, target and user line, in graph order, never by name: FX
  renumbers names (``add_1`` becomes ``add_2`` when an op is added upstream), and a
  placeholder's target is its name, so its "_N" suffix is dropped. The user line is
  compared by its text (and file name); the line *number* only where no text was
  recorded, so an inserted comment moves lines without changing nodes.
- **Guards** compare by type, source and expression, with object ids (``___check_obj_id``,
  ``___check_type_id``) and ``0x`` addresses masked: both are per process.
- **Kernels** compare by source with their own name masked (it embeds the fused ops and a
  counter), long hex hashes masked, and for extern calls the buffer numbers masked and
  graph names read through the node alignment. The fused-node sets are compared through
  the node alignment too.
- Never compared: timestamps, compile times, cache keys and kernel paths, the output
  code's wrapper text, node names, the document's ``id``.

Spelled step for step like ``extension/src/model/identity.ts``.
"""

from __future__ import annotations

import re
from typing import Any

from ..document import SUMMARY_KEYS

Data = dict[str, Any]

_ID_CHECK = re.compile(r"(___check_(?:obj|type)_id\(.*?, )\d+\)")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_HASH = re.compile(r"\b[0-9a-fA-F]{32,}\b")
_BUFFER = re.compile(r"\bbuf\d+\b")
_NAME = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*")
_NUMBERED = re.compile(r"_\d+$")


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
    out, across files its file too."""
    frame = record.get("frame") or {}
    function = text(frame.get("function"))
    who = "\x00".join([function, file_id(frame.get("file"), labels)])
    which = "\x00".join([text(record.get("compiled_autograd_id")),
                         text(record.get("frame_compile_id"))])
    return (f"{who}\x00{text(frame.get('line'))}\x00{which}", f"{who}\x00{which}",
            f"{function}\x00{which}")


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
    return _NUMBERED.sub("", target) if node.get("op") == "placeholder" else target


def node_key(node: Data, labels: dict[str, str]) -> str:
    """What the alignment matches: op, target and user line."""
    return "\x00".join([text(node.get("op")), node_target(node),
                         source_id(node.get("source"), labels)])


def source_id(source: Any, labels: dict[str, str]) -> str:
    if not isinstance(source, dict):
        return ""
    where = file_id(source.get("file"), labels)
    code = source.get("code")
    if isinstance(code, str) and code:
        return f"{where}\x00{code}"
    return f"{where}\x00{text(source.get('line'))}"


def guard_key(guard: Data) -> str:
    expression = _ADDRESS.sub("0x?", _ID_CHECK.sub(r"\1?)", text(guard.get("expression"))))
    return "\x00".join([text(guard.get("type")), text(guard.get("source")), expression])


def kernel_text(kernel: Data, rename: dict[str, str] | None = None) -> str:
    """The kernel's source as compared; ``rename`` maps this side's graph names to the
    other side's (extern calls name graph values)."""
    source, name = text(kernel.get("source")), text(kernel.get("name"))
    if name:
        source = source.replace(name, "<kernel>")
    source = _HASH.sub("<hash>", source)
    if kernel.get("kind") == "extern":
        source = _BUFFER.sub("buf?", source)
        if rename:
            source = _NAME.sub(lambda m: rename.get(m[0], m[0]), source)
    return source


def document_key(doc: Data) -> str:
    """Which document this is, to find its explorer in open notebooks: its ``id``, or for
    documents written before ids, its creation time and counts."""
    if isinstance(doc.get("id"), str) and doc["id"]:
        return doc["id"]
    summary = doc.get("summary") or {}
    return text(doc.get("created")) + "|" + ",".join(text(summary.get(k)) for k in SUMMARY_KEYS)
