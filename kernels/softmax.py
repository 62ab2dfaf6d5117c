"""Row-wise softmax over the last dimension, one program per row (rows up to 64K wide)."""

from __future__ import annotations

import torch

from ._op import HAS_TRITON, define_op


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x.float(), dim=-1).to(x.dtype)


launch = None
if HAS_TRITON:
    import triton
    import triton.language as tl
    from torch.library import wrap_triton

    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        offsets = tl.arange(0, BLOCK)
        mask = offsets < n_cols
        x = tl.load(in_ptr + row * n_cols + offsets, mask=mask, other=-float("inf"))
        x = x.to(tl.float32)
        numerator = tl.exp(x - tl.max(x, axis=0))
        out = numerator / tl.sum(numerator, axis=0)
        tl.store(out_ptr + row * n_cols + offsets, out.to(out_ptr.dtype.element_ty), mask=mask)

    def launch(x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_cols = x.shape[-1]
        wrap_triton(softmax_kernel)[(x.numel() // n_cols,)](
            out, x, n_cols, BLOCK=triton.next_power_of_2(n_cols)
        )
        return out


op = define_op("softmax", reference, launch)
