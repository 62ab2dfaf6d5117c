"""One small compile, run with caches on; `--fusion N` sets Inductor's max_fusion_size
(a component of the FX graph cache's key)."""
import sys

import torch

if "--fusion" in sys.argv:
    torch._inductor.config.max_fusion_size = int(sys.argv[sys.argv.index("--fusion") + 1])


@torch.compile
def f(x):
    return (x.sin() + 1).cos()


f(torch.randn(16))
