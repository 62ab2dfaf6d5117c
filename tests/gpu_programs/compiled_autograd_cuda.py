"""A CUDA training step under compiled autograd: Dynamo traces the whole backward (compile
ids !0/...), the update resumes after the break at loss.backward()."""
import torch
from torch import nn

torch._dynamo.config.compiled_autograd = True
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 8)).cuda()


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
    step(torch.randn(32, 64, device="cuda"), torch.randint(0, 8, (32,), device="cuda"))
torch.cuda.synchronize()
