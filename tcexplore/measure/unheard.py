"""What tcexplore runs for its own measuring is not heard as the user's.

The user's prints and warnings are those of the calls the user asked for (explore()'s
compile call and eager call, a ``%%tcompile`` cell's real run). tcexplore's own work (the
fp64 reference on a float64 copy of the model, the first-divergence search, copying and
comparing tensors) raises no warning the user should read: torch's words about it (a
float64 copy meeting a float32 mask) are about tcexplore's code, so they are ignored,
neither printed nor recorded by a capture, and Python's once-per-location registry is left
as it was (a warning the user's own code raises later is still shown once). A re-run of the
user's code (a cell's eager run, timing loops) only has its output hidden: its warnings may
be torch's word on the compiled code (a CUDA graph's pending backward), which a capture
still records.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Iterator


@contextlib.contextmanager
def no_warnings() -> Iterator[None]:
    """Warnings raised in the block are dropped: not shown, not recorded by a capture."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """The block's prints (and the warnings Python prints) reach nobody: a re-run's output
    belongs to the run the user asked for, which showed it once already."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield
