"""BatchNorm in training mode mutates running stats (buffer mutation)."""
import torch
from torch import nn

model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
model.train()
out = torch.compile(model)(torch.randn(2, 3, 8, 8))
out.mean().backward()
