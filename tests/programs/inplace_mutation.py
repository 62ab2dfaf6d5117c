"""In-place mutation of an input: AOTAutograd functionalises it and copies back."""
import torch


def f(x, buf):
    buf.add_(x)
    x.mul_(2)
    return buf.sum()


fn = torch.compile(f)
fn(torch.randn(8), torch.zeros(8))
