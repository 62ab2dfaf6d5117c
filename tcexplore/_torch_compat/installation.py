"""This torch installation: versions and GPUs, Inductor's C++ compiler, the compile modes
torch.compile accepts."""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable
from typing import Any

from .lookup import resolve


def triton_version() -> str | None:
    try:
        import triton  # optional
    except ImportError:
        return None
    return getattr(triton, "__version__", "unknown")


def environment() -> dict[str, Any]:
    import torch  # imported lazily: see the package docstring

    cuda = torch.cuda.is_available()
    return {
        "torch": str(torch.__version__),  # a TorchVersion: plain JSON types only
        "triton": triton_version(),
        "cuda": torch.version.cuda,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "gpus": [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
        if cuda
        else [],
    }


def cpp_compiler() -> str:
    """The C++ compiler Inductor will invoke on CPU."""
    return resolve("torch._inductor.cpp_builder.get_cpp_compiler")()


def compile_modes() -> list[str]:
    """The ``mode`` values torch.compile accepts ("default" included)."""
    return list(resolve("torch._inductor.list_mode_options")())


def probes() -> tuple[Callable[[], Any], ...]:
    """What check() resolves for the installation."""
    return (
        lambda: resolve("torch._inductor.cpp_builder.get_cpp_compiler"),
        compile_modes,
    )
