"""LayerNorm over the last dimension with weight and bias, one program per row."""

from __future__ import annotations

import torch

from ._op import HAS_TRITON, define_op

EPS = 1e-5


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.layer_norm(
        x.float(), x.shape[-1:], weight.float(), bias.float(), EPS
    ).to(x.dtype)


launch = None
if HAS_TRITON:
    import triton
    import triton.language as tl
    from torch.library import wrap_triton

    @triton.jit
    def layer_norm_kernel(out_ptr, in_ptr, w_ptr, b_ptr, n_cols, eps, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        offsets = tl.arange(0, BLOCK)
        mask = offsets < n_cols
        x = tl.load(in_ptr + row * n_cols + offsets, mask=mask, other=0.0).to(tl.float32)
        mean = tl.sum(x, axis=0) / n_cols
        centred = tl.where(mask, x - mean, 0.0)
        variance = tl.sum(centred * centred, axis=0) / n_cols
        w = tl.load(w_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        out = centred / tl.sqrt(variance + eps) * w + b
        tl.store(out_ptr + row * n_cols + offsets, out.to(out_ptr.dtype.element_ty), mask=mask)

    def launch(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_cols = x.shape[-1]
        wrap_triton(layer_norm_kernel)[(x.numel() // n_cols,)](
            out, x, weight, bias, n_cols, EPS, BLOCK=triton.next_power_of_2(n_cols)
        )
        return out


op = define_op("layer_norm", reference, launch)
