"""A compiled training step whose activation is chosen on the command line (relu or gelu).

The two variants differ in exactly one op: `tcexplore diff` of their documents must name
that node, in every graph, and the kernels fusing it, and nothing else.
"""
import sys

import torch
from torch import nn

ACTIVATION = {"relu": torch.relu, "gelu": nn.functional.gelu}[sys.argv[1] if len(sys.argv) > 1 else "relu"]

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.Linear(32, 4))


@torch.compile
def loss_fn(x, y):
    h = ACTIVATION(model[0](x))
    return nn.functional.cross_entropy(model[1](h * 2), y)


loss_fn(torch.randn(8, 16), torch.randint(0, 4, (8,))).backward()
