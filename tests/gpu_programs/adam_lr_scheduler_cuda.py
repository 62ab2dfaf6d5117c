"""On CUDA: a compiled Adam step (foreach) driven by an LR scheduler: the learning rate, a Python
float that changes, restarts the second compile of Adam.step
(TensorifyScalarRestartAnalysis); tlparse keeps its two attempts, [2/1] and [2/1_1], apart."""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(8, 4).cuda()
opt = torch.optim.Adam(model.parameters(), lr=0.01, foreach=True)
scheduler = torch.optim.lr_scheduler.LinearLR(opt, start_factor=1.0, end_factor=0.1, total_iters=4)


@torch.compile
def step():
    opt.step()
    scheduler.step()


for _ in range(2):
    model(torch.randn(2, 8, device="cuda")).sum().backward()
    step()
    opt.zero_grad()
