"""torch.compiler.disable makes Dynamo skip a function: a break around its call."""
import torch


@torch.compiler.disable
def not_compiled(x):
    return x + 1


def f(x):
    a = x.tanh()
    b = not_compiled(a)
    return b * a


torch.compile(f)(torch.randn(8))
