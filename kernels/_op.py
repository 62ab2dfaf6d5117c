"""Define one operator from an eager reference and, where Triton exists, a Triton launcher."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import torch

try:
    import triton  # noqa: F401 - only its presence matters here
except ImportError:
    HAS_TRITON = False
else:
    # A CUDA build of torch brings Triton to machines without a GPU too, where no kernel
    # can launch (and Inductor would trace the triton_op's CPU path into its own kernels):
    # there the operators are the eager references, as without Triton.
    HAS_TRITON = torch.cuda.is_available()

NAMESPACE = "tcx_kernels"


def define_op(name: str, reference: Callable, triton_launch: Callable | None) -> Callable:
    """``torch.ops.tcx_kernels.<name>``: Triton on CUDA tensors, the reference elsewhere.

    ``reference`` must be fully type-annotated (torch infers the schema from it).
    """
    qualname = f"{NAMESPACE}::{name}"
    if triton_launch is not None:

        def dispatch(*args):
            return triton_launch(*args) if args[0].is_cuda else reference(*args)

        dispatch.__annotations__ = reference.__annotations__  # torch reads the schema from these
        dispatch.__signature__ = inspect.signature(reference)
        return torch.library.triton_op(qualname, dispatch, mutates_args=())
    op = torch.library.custom_op(qualname, reference, mutates_args=())
    op.register_fake(lambda *args: torch.empty_like(args[0]))
    return op
