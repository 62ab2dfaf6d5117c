"""tcexplore: see what torch.compile did to your code."""

from typing import Any

__version__ = "0.1.0"

from .capture import CaptureSession, capture  # noqa: E402
from .docdiff import DocDiff, diff  # noqa: E402
from .document import Document, DocumentError, load  # noqa: E402
from .exploration import Exploration  # noqa: E402
from .measure.compare import Comparison, compare  # noqa: E402
from .measure.explore import explore  # noqa: E402
from .ranks import Ranks, ranks  # noqa: E402
from .traces import TraceError, load_trace  # noqa: E402

# ComparePanel is left out: `import *` must not need the notebook extra.
__all__ = ["capture", "CaptureSession", "Comparison", "compare", "DocDiff", "diff", "Document",
           "DocumentError", "Exploration", "explore", "load", "load_ipython_extension", "load_trace",
           "Ranks", "ranks", "TraceError", "__version__"]


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext tcexplore``: registers the ``%%tcompile`` cell magic."""
    from .magic import load_ipython_extension as load  # noqa: PLC0415 - IPython only here

    load(ipython)


def __getattr__(name: str) -> Any:
    # ComparePanel needs ipywidgets (the `notebook` extra): imported when first used.
    if name == "ComparePanel":
        from .notebook.panel import ComparePanel  # noqa: PLC0415

        return ComparePanel
    raise AttributeError(f"module 'tcexplore' has no attribute {name!r}")
