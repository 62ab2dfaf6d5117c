"""Data-dependent sizes on CUDA: nonzero's length and an item() used as a length are unbacked
symbols, bounded by torch._check and the runtime asserts Inductor emits."""
import torch

torch._dynamo.config.capture_scalar_outputs = True
torch._dynamo.config.capture_dynamic_output_shape_ops = True


@torch.compile(fullgraph=True)
def f(x):
    picked = x[x.nonzero().squeeze(1)]
    length = (x > 1).sum().item()
    torch._check(length <= x.numel())
    return picked.sum() + torch.arange(length, device=x.device).sum()


f(torch.tensor([0.0, 1.0, 0.0, 2.0, 3.0], device="cuda"))
torch.cuda.synchronize()
