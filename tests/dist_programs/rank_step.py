"""Two ranks (gloo) run a compiled step that all-reduces a fixed-size result.

Run as given, the ranks compile and run alike. ``--bigger-batch-on-rank1``: rank 1's
second batch is bigger, so rank 1 alone recompiles (a failed size guard).
``--print-on-rank0``: rank 0 prints inside the step, a graph break on rank 0 only, so
its all-reduce runs in another graph (the resumed rest of the step) than on rank 1.
``--killed-rank1``: rank 1 is killed (SIGKILL) once its steps ran and rank 0 wrote its
document, as a job's rank dies: no document of rank 1, its log as far as it got.
"""

import os
import signal
import sys
import time
from pathlib import Path

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
bigger_batch = "--bigger-batch-on-rank1" in sys.argv and rank == 1
prints = "--print-on-rank0" in sys.argv and rank == 0
weight = torch.ones(8, 4)


@torch.compile
def step(x, w):
    h = torch.relu(x @ w).sum(0)
    if prints:
        print("rank 0 reached the all-reduce")
    dist.all_reduce(h)
    return h * 2


for i in range(2):
    step(torch.randn(6 if bigger_batch and i == 1 else 4, 8), weight)
if "--killed-rank1" in sys.argv and rank == 1:
    written = Path("out.rank0.json")  # tcexplore run writes it once rank 0's script is done
    deadline = time.monotonic() + 300
    while not written.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    os.kill(os.getpid(), signal.SIGKILL)
dist.destroy_process_group()
