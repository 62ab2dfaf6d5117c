"""A compiled training step: forward, loss, backward (AOT forward/backward graphs), optimizer."""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)


@torch.compile
def loss_fn(x, y):
    return nn.functional.cross_entropy(model(x), y)


for _ in range(2):
    loss = loss_fn(torch.randn(8, 16), torch.randint(0, 4, (8,)))
    loss.backward()
    opt.step()
    opt.zero_grad()
