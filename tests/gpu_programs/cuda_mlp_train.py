"""A small CUDA model: forward + backward, compiled with Inductor (Triton kernels)."""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.LayerNorm(128), nn.GELU(), nn.Linear(128, 64)).cuda()
x = torch.randn(32, 64, device="cuda")
out = torch.compile(model)(x)
(out.softmax(-1) * out).sum().backward()
torch.cuda.synchronize()
