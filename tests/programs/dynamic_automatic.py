"""Automatic dynamic shapes: the first size change recompiles with a symbolic size, later ones reuse it."""
import torch


def f(x):
    return x.sin() * x.shape[0]


fn = torch.compile(f)
for n in (4, 6, 10):
    fn(torch.randn(n))
