"""A compiled function launching a user Triton kernel on `relu(x) + 1`: Inductor computes
`relu(x) + 1` in a fused pointwise kernel, then the user kernel reads it."""
import torch
import triton
import triton.language as tl


@triton.jit
def double_kernel(in_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(in_ptr + offsets, mask=mask) * 2, mask=mask)


@torch.compile
def f(x):
    y = x.relu() + 1
    out = torch.empty_like(y)
    double_kernel[(triton.cdiv(y.numel(), 256),)](y, out, y.numel(), BLOCK=256)
    return out


x = torch.randn(4096, device="cuda")
torch.testing.assert_close(f(x), (x.relu() + 1) * 2)
