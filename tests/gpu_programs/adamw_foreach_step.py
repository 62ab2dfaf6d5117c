"""A compiled AdamW step (foreach): Inductor fuses the `_foreach_*` ops and the `copy_`s
back into the parameters and states into foreach (combo) kernels."""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=True)


@torch.compile
def step():
    optimizer.step()


x = torch.randn(32, 64, device="cuda")
for _ in range(2):
    model(x).square().mean().backward()
    step()
    optimizer.zero_grad()
