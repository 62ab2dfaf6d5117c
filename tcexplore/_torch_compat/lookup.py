"""Resolving torch's private names, and the one error raised when one has moved."""

from __future__ import annotations

import importlib
from typing import Any

SUPPORTED_TORCH = "2.11-2.15"


class TorchCompatError(RuntimeError):
    """A private torch API tcexplore relies on is missing or has changed."""


def resolve(dotted: str) -> Any:
    """The object at ``dotted`` (``torch._logging._internal.trace_log``)."""
    import torch  # imported lazily: see the package docstring

    module_name, _, attr = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise TorchCompatError(
            f"torch {torch.__version__} has no `{dotted}`; tcexplore needs it "
            f"(supported: torch {SUPPORTED_TORCH}). Please report this with your torch version."
        ) from exc


def torch_module(name: str) -> Any:
    """The torch module ``name`` (``torch._inductor.config``), imported."""
    import torch

    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise TorchCompatError(f"torch {torch.__version__} has no module `{name}`") from exc
