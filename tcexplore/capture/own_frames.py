"""A graph break's or a compile's stack without the frames that led from tcexplore into the
user's code.

``tcexplore run`` runs the script in its own process (``python -m tcexplore run`` → its
CLI → ``runpy.run_path`` → the script's ``<module>``), and ``%%tcompile`` runs a cell's
body from the magic, so torch's traceback of a break starts with runpy's, ipykernel's and
tcexplore's frames, which ``python script.py`` or the cell run alone do not have. Where the
stack's outer frames are library code (capture/library_files.py) among which are
tcexplore's own, the stack starts at the next ``<module>`` frame after the last of them:
the script's or the cell's top level.

A script that calls ``explore()`` keeps its own outer frames, down to its call of
``explore()``; tcexplore's frames from there to the user's function (the pipeline, the
timed call) are dropped, as ``torch.compile(fn)(x)`` called there has none. tcexplore's own
frames with no user frame below them (the built-in demo's model) are the code compiled, and
stay.
"""

from __future__ import annotations

import functools
from typing import Any

from .library_files import is_library, is_under, library_roots, own_package

Frame = dict[str, Any]


def without_own_frames(stack: list[Frame]) -> list[Frame]:
    """``stack`` (outermost frame first) from the user's top level on, without tcexplore's
    frames between the user's call into it and the user's code (module docstring)."""
    roots, own = _roots()
    leading = 0
    while leading < len(stack) and is_library(str(stack[leading].get("file")), roots):
        leading += 1
    last_own = max(
        (i for i in range(leading) if is_under(str(stack[i].get("file")), [own])), default=None
    )
    start = None
    if last_own is not None:
        start = next(
            (i for i in range(last_own + 1, len(stack)) if stack[i].get("function") == "<module>"),
            None,
        )
    kept: list[Frame] = []
    below = False  # a frame not tcexplore's lies further in
    for frame in reversed(stack[start:] if start is not None else stack):
        ours = is_under(str(frame.get("file")), [own])
        if not (ours and below):
            kept.append(frame)
        below = below or not ours
    return kept[::-1]


@functools.cache
def _roots() -> tuple[list[str], str]:
    """The library directories and tcexplore's own, found once per process."""
    return library_roots(), own_package()
