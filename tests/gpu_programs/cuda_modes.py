"""reduce-overhead and max-autotune on CUDA: CUDA-graph partitions, a skip, autotuning."""
import sys

import torch
from torch import nn

mode = sys.argv[1]
torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = nn.Linear(256, 256), nn.Linear(256, 256)

    def forward(self, x, counter):
        counter.add_(1)  # a mutated input: CUDA graphs are skipped for this graph
        return self.l2(torch.relu(self.l1(x))).softmax(-1)


def head(a):
    return (a @ a.T).relu().sum(-1)


block = Block().cuda()
x, counter = torch.randn(64, 256, device="cuda"), torch.zeros(4, device="cuda")
with torch.no_grad():
    compiled_block, compiled_head = torch.compile(block, mode=mode), torch.compile(head, mode=mode)
    for _ in range(3):
        compiled_block(x, counter)
        compiled_head(x)
torch.cuda.synchronize()
