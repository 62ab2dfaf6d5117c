"""A training step whose activation is chosen by name (relu or gelu).

The two variants differ in exactly one op: `tcexplore diff` of their documents must name
that node, in every graph, and the kernels fusing it, and nothing else (the activation
has a line of its own: torch attributes graph nodes to user lines). As a script
(`activation.py gelu`) it compiles the step and runs it once.
"""
import sys

import torch
from torch import nn


def build(name):
    """The loss function and its inputs."""
    activation = {"relu": torch.relu, "gelu": nn.functional.gelu}[name]
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.Linear(32, 4))

    def loss_fn(x, y):
        h = model[0](x)
        h = activation(h)
        return nn.functional.cross_entropy(model[1](h * 2), y)

    return loss_fn, (torch.randn(8, 16), torch.randint(0, 4, (8,)))


if __name__ == "__main__":
    loss_fn, inputs = build(sys.argv[1] if len(sys.argv) > 1 else "relu")
    torch.compile(loss_fn)(*inputs).backward()
