"""Building big trees of plain data (a parsed log, a JSON document) without the cyclic GC.

Such trees hold no reference cycles, yet every few hundred new containers make CPython's
collector walk all live objects: for a 40 MB document that is half the time spent
reading it. The collector is switched off while one is built and back on afterwards.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def without_gc() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
