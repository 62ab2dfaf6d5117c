"""Custom ops registered again (those capture/custom_ops.py found): the reproducer's
registrations of the ops of other libraries its launch calls.

An output code that calls ``torch.ops.transformers.grouped_mm_fallback`` runs only where
something registered that op. Capture records, per output code, the module that did
(``custom_ops``): the reproducer imports it; an op of the captured program itself
(``__main__``, not importable) is registered again from its recorded schema and source.
For an op nothing recorded (a document read from a log, a source Python could not find),
the reproducer says which import it needs, and stops with that message if the op is missing.
"""

from __future__ import annotations

import re
from typing import Any

from ..capture.custom_ops import PROGRAM_MODULE, ops_called

_INDENT = "    "
_IDENTIFIER = re.compile(r"^[A-Za-z_][\w.]*$")


def _function_name(qualname: str) -> str:
    return "_op_" + qualname.replace("::", "_")


def _renamed(source: str, name: str) -> str:
    """The copied definition under a name of the reproducer's own (no clash with its names)."""
    return re.sub(
        r"^((?:async\s+)?def\s+)\w+", rf"\g<1>{name}", source, count=1, flags=re.MULTILINE
    )


def _registration(entry: dict[str, Any]) -> list[str]:
    ns, name = entry["op"].split("::")
    fn = _function_name(entry["op"])
    body = [
        *_renamed(entry["source"], fn).split("\n"),
        f'_lib = torch.library.Library({ns!r}, "FRAGMENT")',
        f"_lib.define({entry['schema']!r})",
        f'_lib.impl({name!r}, {fn}, "CompositeExplicitAutograd")',
        "_KEEP_ALIVE.append(_lib)",
    ]
    return [
        (
            f"# {entry['op']} is defined by the captured program ({PROGRAM_MODULE}); "
            f"its definition, copied from {entry.get('file') or 'it'}:"
        ),
        f"if not hasattr(torch.ops.{ns}, {name!r}):",
        *(_INDENT + line if line else "" for line in body),
    ]


def _need(entry: dict[str, Any] | None, op: str) -> str:
    if entry is None:
        return (
            "import the module that registers it (this document does not say which: it "
            "was read from a log, or captured by an older tcexplore)"
        )
    if entry.get("module") == PROGRAM_MODULE:
        where = entry.get("file") or "the captured program"
        if entry.get("source") and entry.get("schema"):
            return f"its definition copied above from {where} did not register it"
        return (
            f"it is defined in {where}, whose source tcexplore could not copy: paste its "
            "torch.library definition above"
        )
    return f"import the module that registers {op} ({entry.get('file') or 'unknown file'})"


def section(output: dict[str, Any], program_text: str) -> str | None:
    """The lines that register the ops ``program_text`` calls, or None when it calls none."""
    ops = ops_called(program_text)
    if not ops:
        return None
    recorded = {e.get("op"): e for e in output.get("custom_ops") or [] if isinstance(e, dict)}
    lines = [
        (
            "# Ops of other libraries this launch calls: torch.compile's process had them "
            "registered."
        ),
        "_KEEP_ALIVE = []  # the registrations below live as long as this module",
    ]
    needs = {}
    for op in ops:
        entry = recorded.get(op)
        module = (entry or {}).get("module")
        if module and module != PROGRAM_MODULE and _IDENTIFIER.match(module):
            lines.append(f"import {module}  # registers {op}")
        elif entry and entry.get("source") and entry.get("schema"):
            lines += _registration(entry)
        else:
            lines.append(f"# {op}: {_need(entry, op)}")
        needs[op] = _need(entry, op)
    lines += [
        "",
        "",
        "def _require_ops(needs):",
        f'{_INDENT}"""Stop with what to do when an op the launch calls is not registered."""',
        f"{_INDENT}for op, need in needs.items():",
        f'{_INDENT * 2}ns, name = op.split("::")',
        f"{_INDENT * 2}if not hasattr(getattr(torch.ops, ns), name):",
        (
            f'{_INDENT * 3}raise SystemExit(f"this reproducer calls torch.ops.{{ns}}.{{name}}, '
            f'which is not registered here: {{need}}")'
        ),
        "",
        "",
        f"_require_ops({needs!r})",
    ]
    return "\n".join(lines)
