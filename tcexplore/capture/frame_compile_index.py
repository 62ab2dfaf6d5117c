"""``frame_compile_index``: the number a diff pairs the compiles of one frame by."""

from __future__ import annotations

from typing import Any


def number_within_frames(compiles: list[dict[str, Any]]) -> None:
    """Each compile's ``frame_compile_index``: its place among this document's compiles of
    its frame. torch counts a frame's compiles over the whole process (``frame_compile_id``),
    so a function explored a second time in one process compiles as 0/1; a diff pairs
    compiles by this number, the one a user sees. Frames compiled under compiled autograd
    are counted apart (their ids too are the process's); a frame id used again after
    torch.compiler.reset() counts on, in generation order."""
    frames: dict[tuple[bool, Any], list[dict[str, Any]]] = {}
    for record in compiles:
        key = (record["compiled_autograd_id"] is not None, record["frame_id"])
        frames.setdefault(key, []).append(record)
    for records in frames.values():
        ordered = sorted(
            records,
            key=lambda r: (
                r["generation"],
                r["frame_compile_id"] is None,
                r["frame_compile_id"] or 0,
            ),
        )
        for index, record in enumerate(ordered):
            record["frame_compile_index"] = index
