"""Keep the profiler's native log lines out of the user's terminal and notebook.

Starting and stopping ``torch.profiler`` makes Kineto write ``USDT: ... profiler_start`` /
``profiler_stop`` lines from native code straight to file descriptor 2, past Python's
``sys.stderr``. Around those calls only, fd 2 goes to a temporary file; afterwards it is
restored (always) and every other line written meanwhile is passed on, so a real error
is never lost.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

NATIVE_NOISE = (b"USDT:",)


def _flush_stderr() -> None:
    with contextlib.suppress(Exception):  # a closed or replaced sys.stderr has nothing to flush
        sys.stderr.flush()


@contextlib.contextmanager
def without_native_noise() -> Iterator[None]:
    """fd 2 captured for the block; its lines but the profiler's noise written back after."""
    _flush_stderr()
    try:
        saved = os.dup(2)
    except OSError:  # no fd 2 at all: nothing to keep clean
        yield
        return
    with tempfile.TemporaryFile() as caught:
        try:
            os.dup2(caught.fileno(), 2)
            yield
        finally:
            _flush_stderr()
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            kept = [
                line
                for line in caught.read().splitlines(keepends=True)
                if not line.startswith(NATIVE_NOISE)
            ]
            if kept:
                os.write(2, b"".join(kept))


@contextlib.contextmanager
def quietly_entered(manager: Any) -> Iterator[Any]:
    """``with manager`` whose enter and exit (the profiler's start and stop) are kept free
    of native noise; the block between them is untouched."""
    with without_native_noise():
        value = manager.__enter__()
    try:
        yield value
    except BaseException:
        with without_native_noise():
            if not manager.__exit__(*sys.exc_info()):
                raise
    else:
        with without_native_noise():
            manager.__exit__(None, None, None)
