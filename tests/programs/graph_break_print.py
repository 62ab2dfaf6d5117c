"""A graph break on an untraceable builtin (print)."""
import torch


def f(x):
    y = x.sin()
    print("side effect")
    return y.cos() + 1


torch.compile(f)(torch.randn(16))
