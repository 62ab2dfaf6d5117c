"""An explicit graph break inside a helper called from the compiled function."""
import torch
import torch._dynamo


def helper(x):
    torch._dynamo.graph_break()
    return x.relu()


@torch.compile
def f(x):
    return helper(x.exp()) * 3


f(torch.randn(4, 4))
