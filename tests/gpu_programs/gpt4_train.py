"""The benchmarks' 4-layer GPT (4 heads), forward + backward, default mode, on CUDA."""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from gpt_model import GPT  # noqa: E402

torch.set_default_device("cuda")
torch.manual_seed(0)
model = GPT(layers=4, heads=4)
idx = torch.randint(0, 256, (4, 32))
torch.compile(model)(idx).float().pow(2).mean().backward()
torch.cuda.synchronize()
