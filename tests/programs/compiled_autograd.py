"""A training step under compiled autograd: Dynamo traces the whole backward as its own graph
(compile ids !0/...); the update resumes after the break at loss.backward()."""
import torch
from torch import nn

torch._dynamo.config.compiled_autograd = True
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


@torch.compile
def step(x, y):
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.1 * p.grad
            p.grad = None
    return loss


for _ in range(2):
    step(torch.randn(8, 16), torch.randint(0, 4, (8,)))
