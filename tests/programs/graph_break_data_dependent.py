"""A graph break on data-dependent control flow and on .item()."""
import torch


def f(x):
    if x.sum() > 0:
        x = x * 2
    scale = x.max().item()
    return x / scale


fn = torch.compile(f)
fn(torch.ones(8))
