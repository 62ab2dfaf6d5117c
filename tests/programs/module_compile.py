"""nn.Module.compile() compiles the module's forward in place."""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        return self.proj(x).sigmoid() * x


net = Net()
net.compile()
with torch.no_grad():
    net(torch.randn(2, 8))
