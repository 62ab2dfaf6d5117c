"""``gelu(x + bias)`` with the tanh approximation, fused into one elementwise pass."""

from __future__ import annotations

import torch

from ._op import HAS_TRITON, define_op


def reference(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x + bias, approximate="tanh")


launch = None
if HAS_TRITON:
    import triton
    import triton.language as tl
    from torch.library import wrap_triton

    @triton.jit
    def bias_gelu_kernel(out_ptr, in_ptr, bias_ptr, numel, n_cols, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < numel
        x = tl.load(in_ptr + offsets, mask=mask).to(tl.float32)
        x += tl.load(bias_ptr + offsets % n_cols, mask=mask).to(tl.float32)
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
        out = 0.5 * x * (1.0 + tanh)
        tl.store(out_ptr + offsets, out.to(out_ptr.dtype.element_ty), mask=mask)

    def launch(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        block = 1024
        wrap_triton(bias_gelu_kernel)[(triton.cdiv(x.numel(), block),)](
            out, x, bias, x.numel(), x.shape[-1], BLOCK=block
        )
        return out


op = define_op("bias_gelu", reference, launch)
