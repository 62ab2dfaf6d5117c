"""tcexplore: see what torch.compile did to your code.

Every public name is imported when first used: ``import tcexplore`` (every CLI command,
``%load_ext``) stays fast, and reading logs or documents never loads torch.
"""

from __future__ import annotations

import importlib
from typing import Any

from ._version import __version__ as __version__

# Functions named like a subpackage: importing a subpackage (as any of its modules does)
# sets the package's attribute to it, so these two are bound here, now. ``capture`` is
# capture/'s, wrapped from measure/ for ``profile=True``; neither module loads torch.
from .measure.profiled_capture import capture as capture
from .ranks import ranks as ranks

# public name -> the module defining it, relative to this package
_EXPORTS = {
    "capture": ".measure.profiled_capture",
    "CaptureSession": ".capture",
    "Comparison": ".measure.compare",
    "compare": ".measure.compare",
    "ComparePanel": ".notebook.panel",  # needs the `notebook` extra; not in __all__
    "DocDiff": ".docdiff",
    "diff": ".docdiff",
    "Document": ".decided",
    "DocumentError": ".document",
    "load": ".saved",
    "Exploration": ".measure.exploration",
    "explore": ".measure.explore",
    "Ranks": ".ranks",
    "ranks": ".ranks",
    "TraceError": ".traces.log_file",
    "load_trace": ".decided",
}
__all__ = sorted(
    [*(n for n in _EXPORTS if n != "ComparePanel"), "load_ipython_extension", "__version__"]
)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tcexplore' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext tcexplore``: registers the ``%%tcompile`` cell magic."""
    from .notebook.magic import load_ipython_extension as load  # noqa: PLC0415 - IPython only here

    load(ipython)
