"""What capture hears from torch's bytecode hook: each transformed frame's two code objects.

Dynamo hands every frame it transforms to the registered bytecode hooks, as the original
and the modified code object. Capture disassembles both as torch itself does for the
resume functions' ``*_ORIGINAL_BYTECODE`` / ``*_MODIFIED_BYTECODE`` trace artifacts
(``dis.Bytecode(code).dis()``; on Python 3.13+ with offsets, which that layout leaves out
by default and which name the resume points), and records them as one event of the compile
torch is in. Nothing is returned to torch: its code stays as it made it.
"""

from __future__ import annotations

import dis
import sys
from types import CodeType
from typing import Any

from .. import _torch_compat

EVENT = "bytecode_hook"


def disassemble(code: CodeType) -> str:
    if sys.version_info >= (3, 13):
        return dis.Bytecode(code, show_offsets=True).dis()
    return dis.Bytecode(code).dis()


def bytecode_record(code: CodeType, modified: CodeType, side_effects: Any) -> dict[str, Any]:
    """The trace metadata of one hook call: the compile id torch is in, and the event."""
    return {
        EVENT: {
            "function": code.co_name,
            "file": code.co_filename,
            "line": code.co_firstlineno,
            "original": disassemble(code),
            "modified": disassemble(modified),
            "side_effects": None if side_effects is None else [str(s) for s in side_effects],
        },
        **_torch_compat.current_compile_id(),
    }
