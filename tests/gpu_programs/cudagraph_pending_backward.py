"""The classic reduce-overhead trap: a training-mode model called again while the outputs
of the previous call still wait for their backward misses the CUDA-graph fast path."""
import torch
from torch import nn

model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 64)).cuda()
compiled = torch.compile(model, mode="reduce-overhead")
x = torch.randn(32, 64, device="cuda")
for _ in range(4):
    out = compiled(x)  # no backward(): each step leaves pending backwards behind
torch.cuda.synchronize()
