"""Static shapes (dynamic=False): every new shape fails a size guard and recompiles."""
import torch


def f(x):
    return torch.nn.functional.softmax(x * 2, dim=-1)


fn = torch.compile(f, dynamic=False)
for n in (4, 8, 16):
    fn(torch.randn(n, 8))
