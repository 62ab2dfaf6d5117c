"""DDP training steps compiled the way PyTorch documents it: ``torch.compile(DDP(model))``.

Dynamo's DDPOptimizer splits the model's graph at DDP's bucket boundaries, so each
bucket's all-reduce can start as soon as its gradients are ready; the all-reduces
themselves run in DDP's reducer, outside the compiled graphs. The model is a user-defined
module: Dynamo compiles no top-level frame of torch's own modules, so ``DDP(nn.Sequential)``
compiles nothing (its frames are all skipped).

NCCL on CUDA (one GPU per rank), gloo on CPU (or with ``--cpu``). ``--width N`` sets
the layer width (the default 512 makes 1 MB layers: several buckets with
``bucket_cap_mb=1``); ``--diverge`` gives rank 1 a bigger batch after the first step, so
rank 1 alone recompiles; ``--backend`` is torch.compile's (the CPU tests use aot_eager:
no C++ to build).
Run: ``torchrun --nproc_per_node 2 -m tcexplore run ddp_train.py --json out.json``.
"""

import argparse
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

parser = argparse.ArgumentParser()
parser.add_argument("--width", type=int, default=512)
parser.add_argument("--diverge", action="store_true")
parser.add_argument("--backend", default="inductor")
parser.add_argument("--cpu", action="store_true", help="gloo on CPU even where CUDA is")
args = parser.parse_args()

cuda = torch.cuda.is_available() and not args.cpu
dist.init_process_group("nccl" if cuda else "gloo")
rank = dist.get_rank()
device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0"))) if cuda else torch.device("cpu")
if cuda:
    torch.cuda.set_device(device)


class MLP(nn.Module):
    def __init__(self, width: int, layers: int = 4):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(width, width) for _ in range(layers))
        self.head = nn.Linear(width, 8)

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.head(x)


torch.manual_seed(0)
model = DDP(MLP(args.width).to(device), device_ids=[device.index] if cuda else None,
            bucket_cap_mb=1)
compiled = torch.compile(model, backend=args.backend)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(3):
    batch = 48 if args.diverge and rank == 1 and step > 0 else 32
    loss = compiled(torch.randn(batch, args.width, device=device)).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
dist.destroy_process_group()
