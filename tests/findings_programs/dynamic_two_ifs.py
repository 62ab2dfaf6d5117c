"""Automatic dynamic shapes: batch 8, 16, 24; two `if` lines on x.size(0) guard the size."""
import torch


def f(x):
    if x.size(0) > 100:
        x = x * 2
    if x.size(0) % 2 == 0:
        x = x + 1
    return x.sin()


fn = torch.compile(f)
for n in (8, 16, 24):
    fn(torch.randn(n, 3))
