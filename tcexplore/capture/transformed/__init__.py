"""A Python-like reading of the code Dynamo put in place of a frame, read from its instructions.

The modified bytecode is interpreted symbolically, instruction by instruction, on a stack of
values that are texts (``x``, ``graph_out_0[0]``) or lists built in the code itself (Dynamo
moves its stack through lists, so these are followed exactly, copies and swaps included).
Each effect becomes one step of the reading: the call into a compiled graph, a call run
eagerly, a write to state outside the frame (a side effect Dynamo replays), a call into a
resume function, the value returned. Both ways of a conditional jump are read. The reading
stops, and says where, at the first instruction it does not know: it never guesses. Every
step names the instructions it was read from, which is how the views mark them.

values.py holds the values and the expressions over them, stack.py the instructions that only
move and combine values, reader.py the Reader: the instructions with effects, and the steps.
"""

from __future__ import annotations

from typing import Any

from .reader import Reader

__all__ = ["read_modified"]


def read_modified(instructions: list[dict[str, Any]]) -> dict[str, Any]:
    """The reading: ``steps`` in execution order (each with its kind, text, line and
    instruction indexes) and whether every reachable instruction was read (``complete``)."""
    reader = Reader(instructions)
    reader.run()
    return {"steps": reader.steps, "complete": reader.complete}
