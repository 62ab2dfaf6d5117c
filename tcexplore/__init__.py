"""tcexplore: see what torch.compile did to your code.

Every public name is imported when first used: ``import tcexplore`` (every CLI command,
``%load_ext``) stays fast, and reading logs or documents never loads torch. The package
also wires into the document (the data contract, which imports nothing above it) what it
offers beyond its data: its HTML report, its notebook display, its kernels.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import document as _document
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
    "Document": ".document",
    "DocumentError": ".document",
    "load": ".document",
    "Exploration": ".measure.exploration",
    "explore": ".measure.explore",
    "Ranks": ".ranks",
    "ranks": ".ranks",
    "TraceError": ".traces.log_file",
    "load_trace": ".traces",
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


def _html(document: Any, **options: Any) -> str:
    from .render.html import render_html  # noqa: PLC0415

    return render_html(document, **options)


def _notebook(data: dict[str, Any], text: str) -> dict[str, Any]:
    from .render.notebook import mime_bundle  # noqa: PLC0415

    return mime_bundle(data, text)


def _kernel(data: dict[str, Any], name: str, **where: Any) -> Any:
    from .workbench import find_kernel  # noqa: PLC0415

    return find_kernel(data, name, **where)


def _kernels(data: dict[str, Any]) -> list[Any]:
    from .workbench import all_kernels  # noqa: PLC0415

    return all_kernels(data)


def _ranks(data: dict[str, Any]) -> Any:
    from .ranks import Ranks  # noqa: PLC0415

    for entry in data.get("ranks") or []:
        if isinstance(entry.get("document"), dict):
            _upgrade(entry["document"])  # each rank's report draws what it lacks
    return Ranks(data, check=False)


def _decide(data: dict[str, Any]) -> dict[str, Any]:
    from .findings import decide  # noqa: PLC0415

    return decide(data)


def _audit(data: dict[str, Any]) -> list[dict[str, Any]]:
    from .findings.graph_break_audit import graph_break_audit  # noqa: PLC0415

    return graph_break_audit(data)


def _older(data: dict[str, Any]) -> dict[str, Any]:
    from .capture.upgrade import parse_older  # noqa: PLC0415

    return parse_older(data)


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    from .findings import upgrade  # noqa: PLC0415

    return upgrade(_older(data))


def _comparison_html(data: dict[str, Any]) -> str:
    from .render.comparison import render_comparison_html  # noqa: PLC0415

    return render_comparison_html(data)


def _comparison_notebook(data: dict[str, Any], text: str) -> dict[str, Any]:
    from .render.comparison import comparison_mime_bundle  # noqa: PLC0415

    return comparison_mime_bundle(data, text)


_document.wire(
    html=_html,
    notebook=_notebook,
    kernel=_kernel,
    kernels=_kernels,
    ranks=_ranks,
    decide=_decide,
    audit=_audit,
    older=_older,
    upgrade=_upgrade,
    comparison_html=_comparison_html,
    comparison_notebook=_comparison_notebook,
)
