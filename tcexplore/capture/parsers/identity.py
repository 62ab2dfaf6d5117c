"""What is noise in torch's text when two documents are compared, read once at capture and
stored beside the text, so both diffs (docdiff/ and the extension's, which runs in the
browser with no kernel) compare the same stored forms and neither reads torch's text apart
again (docdiff/identity.py says why each is noise):

- a guard's ``masked`` source and expression: object ids (``___check_obj_id``,
  ``___check_type_id``), ``0x`` addresses and the counters of the globals Dynamo installs
  (``G['__builtins_dict___7']``) masked; None where the guard has none;
- a placeholder's ``target_key``: its target without FX's ``_N`` numbering;
- a kernel's ``hashes``: the long hex hashes its source holds (masked when compared), and
  an extern call's ``tokens``: its source, its own name, hashes and buffer numbers masked,
  cut into names (which a diff reads through the node alignment) and the text between;
- a resume function's compile's ``unmoved_function``: its name with the break lines it
  embeds masked (a frame that moved still pairs).
"""

from __future__ import annotations

import re
from typing import Any

Data = dict[str, Any]

_ID_CHECK = re.compile(r"(___check_(?:obj|type)_id\(.*?, )\d+\)")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_INSTALLED = re.compile(r"(G\['__\w*?_)\d+('\])")  # Dynamo's install_global: name_<counter>
_HASH = re.compile(r"\b[0-9a-fA-F]{32,}\b")
_BUFFER = re.compile(r"\bbuf\d+\b")
_NAME = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*")
_NUMBERED = re.compile(r"_\d+$")
_AT_LINE = re.compile(r"_at_\d+$")
RESUME_PREFIX = "torch_dynamo_resume_in_"  # Dynamo's name for the rest of a frame after a break


def masked_guard(source: str, expression: str) -> tuple[str, str]:
    expression = _ADDRESS.sub("0x?", _ID_CHECK.sub(r"\1?)", expression))
    return _INSTALLED.sub(r"\1?\2", source), _INSTALLED.sub(r"\1?\2", expression)


def placeholder_target(target: str) -> str:
    return _NUMBERED.sub("", target)


def without_lines(function: str) -> str:
    """``torch_dynamo_resume_in_f_at_12`` (nested: ``..._in_torch_dynamo_resume_in_f_at_4_at_6``)
    with its lines masked."""
    for _ in range(function.count(RESUME_PREFIX)):
        function = _AT_LINE.sub("", function)
    return function


def kernel_source(kernel: Data) -> str:
    """The kernel's source with its own name and its hashes masked (extern calls: and their
    buffer numbers)."""
    source, name = str(kernel.get("source") or ""), str(kernel.get("name") or "")
    if name:
        source = source.replace(name, "<kernel>")
    source = _HASH.sub("<hash>", source)
    return _BUFFER.sub("buf?", source) if kernel.get("kind") == "extern" else source


def name_tokens(source: str) -> list[Data]:
    """``source`` cut into pieces, each ``{text, name}`` (a name, or the text between):
    joined, they are ``source``."""
    tokens: list[Data] = []
    at = 0
    for found in _NAME.finditer(source):
        if found.start() > at:
            tokens.append({"text": source[at : found.start()], "name": False})
        tokens.append({"text": found[0], "name": True})
        at = found.end()
    if at < len(source):
        tokens.append({"text": source[at:], "name": False})
    return tokens


def _graphs(record: Data) -> list[Data]:
    graphs = [
        record.get("dynamo_graph"),
        *(record.get("aot_graphs") or {}).values(),
        *(record.get("post_grad_graphs") or []),
        *((a or {}).get("graph") for a in record.get("restarted_attempts") or []),
    ]
    return [g for g in graphs if isinstance(g, dict)]


def add_identity(compiles: list[Data]) -> None:
    """Store the masked forms in every record, where it lacks them (a document saved
    before gets them when read: capture/upgrade.py)."""
    for record in compiles:
        if not isinstance(record, dict):
            continue
        function = str((record.get("frame") or {}).get("function") or "")
        if RESUME_PREFIX in function and "unmoved_function" not in record:
            record["unmoved_function"] = without_lines(function)
        for guard in record.get("guards") or []:
            if isinstance(guard, dict) and "masked" not in guard:
                source, expression = (
                    str(guard.get("source") or ""),
                    str(guard.get("expression") or ""),
                )
                masked = masked_guard(source, expression)
                guard["masked"] = (
                    None
                    if masked == (source, expression)
                    else {"source": masked[0], "expression": masked[1]}
                )
        for graph in _graphs(record):
            for node in graph.get("nodes") or []:
                if isinstance(node, dict) and node.get("op") == "placeholder":
                    node.setdefault("target_key", placeholder_target(str(node.get("target") or "")))
        for output in record.get("output_codes") or []:
            for kernel in output.get("kernels") or []:
                if isinstance(kernel, dict) and "hashes" not in kernel:
                    kernel["hashes"] = sorted(set(_HASH.findall(str(kernel.get("source") or ""))))
                    if kernel.get("kind") == "extern":
                        kernel["tokens"] = name_tokens(kernel_source(kernel))
