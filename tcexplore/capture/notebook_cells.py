"""Name notebook cells as a person does: "cell [5]", not "/tmp/ipykernel_71/2793.py".

Every file a document mentions that IPython knows as a cell (its compiler's
``format_code_name``: the ``%%tcompile`` cell itself, the cell calling ``explore()``, and
cells defining the functions and models they call) gets a label, and its text (from
``linecache``) for the source view. The document keeps the real file names; the report
shows the labels. Captured here, below measure/ (explore() called in a cell needs it) and
notebook/ (%%tcompile), which both add the labels to the document they build.
"""

from __future__ import annotations

import linecache
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

# The name of the function a ``%%tcompile`` cell becomes (notebook/cell.py).
CELL_FUNCTION = "<cell>"
# The line a ``%%tcompile`` cell's wrapper gives its own statements (notebook/cell.py: the
# names it starts unbound, the return of the cell's values): no line of the cell (lines
# start at 1), so that their instructions read as the wrapper's, never as the user's.
WRAPPER_LINE = 0
# What a name the cell has not (or no longer) bound returns (notebook/cell.py). A string
# constant, not a sentinel object: Dynamo treats constants as constants, so the wrapping adds
# no guard. The wrapper's statements stand at WRAPPER_LINE, so the Bytecode tab marks them as
# its own; in a resume function Dynamo made of the cell they stand at the break's line, and
# the constant tells them.
UNBOUND = "<not assigned by this cell (yet)>"

FormatCodeName = Callable[[str], "tuple[str, str] | None"]


def _number(named: tuple[str, str] | None) -> int | None:
    found = re.search(r"\[(\d+)\]", named[1]) if named else None
    return int(found.group(1)) if found else None


def running_cell(format_code_name: FormatCodeName) -> tuple[str, int] | None:
    """(file name, n) of the cell In[n] being executed: the nearest calling frame whose
    file IPython knows as a cell (``execution_count`` is already n+1 there in IPython 9)."""
    frame = sys._getframe(1)
    while frame is not None:
        number = _number(format_code_name(frame.f_code.co_filename))
        if number is not None:
            return frame.f_code.co_filename, number
        frame = frame.f_back
    return None


def referenced_files(tree: Any) -> Iterator[str]:
    """Every ``"file"`` value of the document's location objects."""
    pending = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if isinstance(node.get("file"), str):
                yield node["file"]
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)


def cell_sections(
    data: dict[str, Any], first: str | None, format_code_name: FormatCodeName
) -> dict[str, Any]:
    """``source_labels`` and ``sources`` for the ``explore`` section; ``first`` (the
    compiled or calling cell's file), if any, comes first."""
    labels: dict[str, str] = {}
    for file in [*([first] if first else []), *dict.fromkeys(referenced_files(data))]:
        number = _number(format_code_name(file)) if file not in labels else None
        if number is not None:
            labels[file] = f"cell [{number}]"
    sources = {file: "".join(linecache.getlines(file)) for file in labels}
    return {"source_labels": labels, "sources": {f: t for f, t in sources.items() if t}}


def notebook_cell_sections(data: dict[str, Any]) -> dict[str, Any]:
    """:func:`cell_sections` when this runs in IPython (``explore()`` called in a notebook),
    the calling cell first; nothing elsewhere. IPython is never imported here."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    format_code_name = getattr(getattr(shell, "compile", None), "format_code_name", None)
    if format_code_name is None:
        return {}
    running = running_cell(format_code_name)
    return cell_sections(data, running[0] if running else None, format_code_name)
