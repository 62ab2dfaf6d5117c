"""One block marked as a nested compile region, called once per layer: compiled once, called four times."""
import torch


@torch.compiler.nested_compile_region
def block(x, weight):
    return torch.relu(x @ weight) + x


torch.manual_seed(0)
weights = [torch.randn(8, 8) for _ in range(4)]


@torch.compile
def layers(x):
    for weight in weights:
        x = block(x, weight)
    return x.sum()


layers(torch.randn(4, 8))
