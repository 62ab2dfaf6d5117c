"""A Python scalar argument is specialised: a new value fails its guard."""
import torch


def f(x, alpha):
    return x * alpha + alpha


fn = torch.compile(f)
x = torch.randn(8)
fn(x, 2)
fn(x, 3)
