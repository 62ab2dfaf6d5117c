"""A training step whose sequence length is dynamic: compiling its backward, torch evaluates
`Eq(s27, 16)` with guards suppressed (`eval [guard suppressed] ...`): not a guard. The `if`
line is a guard torch keeps."""
import torch
from torch import nn

torch.manual_seed(0)
emb = nn.Embedding(50, 8)
lin = nn.Linear(8, 8)


def step(ids):
    h = emb(ids)
    if ids.size(1) > 100:
        h = h * 2
    return (lin(h) @ h.transpose(1, 2)).mean()


fn = torch.compile(step, dynamic=True)
for n in (16, 20):
    fn(torch.randint(0, 50, (2, n))).backward()
