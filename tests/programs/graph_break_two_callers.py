"""A .item() graph break in a helper reached from two call sites, then a second input
shape: one break site whose events repeat per frame that reaches it and per recompile."""
import torch


def scale(t):
    return t * t.sum().item()


def head(t):
    return scale(t.relu())


def tail(t):
    return scale(t.tanh())


def f(x):
    return head(x) + tail(x)


fn = torch.compile(f, backend="aot_eager")
fn(torch.randn(8, 4))
fn(torch.randn(6, 4))
