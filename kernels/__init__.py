"""Hand-written Triton kernels with eager references, usable inside torch.compile.

Each is a torch operator ``torch.ops.tcx_kernels.<name>``. Where Triton is installed the
operator is a ``torch.library.triton_op``: Inductor sees the user kernel and places it in
its output code next to its own generated kernels (tcexplore lists it as a Triton kernel
of kind ``user``). Without Triton or without a GPU the same operator runs the eager
reference, so notebooks and tests run everywhere; Inductor then calls it as an extern op.
"""

from . import bias_gelu, layer_norm, softmax
from ._op import HAS_TRITON

__all__ = ["HAS_TRITON", "bias_gelu", "layer_norm", "softmax"]
