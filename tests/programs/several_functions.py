"""Several independently compiled functions in one script."""
import torch


@torch.compile
def first(x):
    return x.exp().sum()


@torch.compile
def second(x, y):
    return torch.where(x > y, x, y).mean()


def third(x):
    return x.cumsum(0)


first(torch.randn(5))
second(torch.randn(5), torch.randn(5))
torch.compile(third, backend="aot_eager")(torch.randn(5))
