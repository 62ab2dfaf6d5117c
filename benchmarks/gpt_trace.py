#!/usr/bin/env python
"""The TORCH_TRACE log of a 12-layer GPT training step on CPU, made once and kept.

The benchmarks of reading logs (import_speed.py, ranks_scale.py) need a real log of a
real model: this runs one compiled training step of benchmarks/gpt_model.py's GPT
(forward, cross-entropy, backward, an SGD step) in a fresh process with ``TORCH_TRACE``
set, and returns the log's path. A second call with the same output path reuses it.

    python benchmarks/gpt_trace.py OUT_DIR      # prints the log's path
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

_STEP = """
import sys, torch
sys.path.insert(0, {here!r})
from gpt_model import GPT
torch.manual_seed(0)
model = GPT(layers={layers})
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
tokens = torch.randint(0, 256, (2, 16))

@torch.compile
def step(tokens):
    logits = model(tokens[:, :-1])
    loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten())
    loss.backward()
    return loss

step(tokens)
optimizer.step()
"""


def gpt_trace_log(out_dir: str | Path, layers: int = 12) -> Path:
    """The log of one training step in ``out_dir`` (made on first use: minutes on 2 cores)."""
    out_dir = Path(out_dir)
    logs = sorted(out_dir.glob("*.log"))
    if logs:
        return logs[0]
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as cache:
        env = {
            k: v for k, v in os.environ.items() if k not in ("TORCH_LOGS", "TORCH_COMPILE_DEBUG")
        }
        env.update(
            TORCH_TRACE=str(out_dir),
            TORCHINDUCTOR_CACHE_DIR=cache,
            TORCHINDUCTOR_FX_GRAPH_CACHE="0",
            TORCHINDUCTOR_AUTOGRAD_CACHE="0",
        )
        subprocess.run(
            [sys.executable, "-c", _STEP.format(here=str(HERE), layers=layers)], env=env, check=True
        )
    (log,) = sorted(out_dir.glob("*.log"))
    return log


if __name__ == "__main__":
    print(gpt_trace_log(sys.argv[1] if len(sys.argv) > 1 else "gpt-trace"))
