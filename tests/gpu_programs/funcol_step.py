"""A compiled function calling collectives, on every rank alike: an all-reduce through
``dist.all_reduce`` (Dynamo traces it as the functional ``all_reduce``), then the
functional all-gather and reduce-scatter of ``torch.distributed._functional_collectives``.
Inductor schedules them with their waits; the multi-rank view compares those schedules.

NCCL on CUDA (one GPU per rank), gloo on CPU.
Run: ``torchrun --nproc_per_node 2 -m tcexplore run funcol_step.py --json out.json``.
"""

import os

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol

cuda = torch.cuda.is_available()
dist.init_process_group("nccl" if cuda else "gloo")
device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0"))) if cuda else torch.device("cpu")
if cuda:
    torch.cuda.set_device(device)
group = dist.group.WORLD


@torch.compile
def step(x):
    h = torch.relu(x)
    dist.all_reduce(h)
    gathered = funcol.all_gather_tensor(h * 2, 0, group)
    return funcol.reduce_scatter_tensor(gathered, "sum", 0, group).sum()


for _ in range(2):
    step(torch.randn(16, device=device))
dist.destroy_process_group()
