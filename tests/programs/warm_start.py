"""torch's warm start in one process: compile, save the cache artifacts, reset, a fresh
cache directory, load the artifacts, compile again: the second compile is served by the
caches (tlparse files both compiles under 0/0). On CUDA when there is a GPU."""

import os
import tempfile
import time

import torch


def f(x, w):
    return torch.nn.functional.silu(x @ w) + 1


device = "cuda" if torch.cuda.is_available() else "cpu"
x, w = torch.randn(32, 32, device=device), torch.randn(32, 32, device=device)

start = time.perf_counter()
torch.compile(f)(x, w)
cold = time.perf_counter() - start
artifacts = torch.compiler.save_cache_artifacts()
assert artifacts is not None, "the compile saved no cache artifacts"

torch.compiler.reset()
with tempfile.TemporaryDirectory(prefix="warm_start_") as fresh:
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = fresh
    torch.compiler.load_cache_artifacts(artifacts[0])
    start = time.perf_counter()
    torch.compile(f)(x, w)
    warm = time.perf_counter() - start
print(f"cold {cold:.2f} s, warm {warm:.2f} s")
