"""A new dtype fails the tensor-match guard."""
import torch


def f(x):
    return (x + 1).square().sum()


fn = torch.compile(f)
fn(torch.randn(8))
fn(torch.randn(8, dtype=torch.float64))
