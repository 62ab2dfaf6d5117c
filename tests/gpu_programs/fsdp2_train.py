"""FSDP2 training steps compiled as torchtitan does: ``torch.compile`` each block, then
``fully_shard`` each block and the root.

Each compiled block is one graph per direction; FSDP2's all-gathers and reduce-scatters
run in its hooks, between the compiled graphs. NCCL on CUDA (one GPU per rank), gloo on
CPU (or with ``--cpu``). ``--width N`` sets the block width; ``--diverge`` gives rank 1 a
bigger batch after the first step, so rank 1 alone recompiles its blocks; ``--backend`` is
torch.compile's (the CPU tests use aot_eager: no C++ to build).
Run: ``torchrun --nproc_per_node 2 -m tcexplore run fsdp2_train.py --json out.json``.
"""

import argparse
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import fully_shard

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


class Block(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))


class Model(nn.Module):
    def __init__(self, width: int, blocks: int = 2):
        super().__init__()
        self.blocks = nn.ModuleList(Block(width) for _ in range(blocks))
        self.head = nn.Linear(width, 8)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


torch.manual_seed(0)
model = Model(args.width).to(device)
for block in model.blocks:
    block.compile(backend=args.backend)
    fully_shard(block)
fully_shard(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(3):
    batch = 48 if args.diverge and rank == 1 and step > 0 else 32
    loss = model(torch.randn(batch, args.width, device=device)).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
dist.destroy_process_group()
