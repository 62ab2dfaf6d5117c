"""dynamic=True: symbolic sizes from the first compile; no recompile on a new size."""
import torch


def f(x, y):
    return (x @ y).relu()


fn = torch.compile(f, dynamic=True)
fn(torch.randn(4, 8), torch.randn(8, 3))
fn(torch.randn(5, 8), torch.randn(8, 3))
