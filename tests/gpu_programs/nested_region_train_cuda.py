"""One block marked as a nested compile region, called by 8 layers, forward and backward on
CUDA: Inductor compiles the block's subgraph once per graph and calls it per layer."""
import torch
from torch import nn


@torch.compiler.nested_compile_region
def block(x, weight):
    return nn.functional.gelu(x @ weight) + x


torch.manual_seed(0)
weights = [nn.Parameter(torch.randn(64, 64, device="cuda") / 8) for _ in range(8)]


@torch.compile
def layers(x):
    for weight in weights:
        x = block(x, weight)
    return x.sum()


layers(torch.randn(32, 64, device="cuda", requires_grad=True)).backward()
torch.cuda.synchronize()
