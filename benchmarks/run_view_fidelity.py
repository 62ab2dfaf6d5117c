"""The run view's per-step time against the program's own (#40 item 1): a training loop of
30 steps (two Linear blocks, a graph break in the forward, an eager AdamW) that times its
own steps, run plain and under ``tcexplore run --profile`` (3 times each, each in a fresh
process, the two in alternation), and once under ``tcexplore run``; printed as one table
with the run view's figure (the steps timed without the profiler), the profiled steps' mean
and the slowdown between them.

    PYTHONPATH=. python benchmarks/run_view_fidelity.py [--device cpu|cuda] [--steps 30]

A loop's per-step time is the mean of its steady steps (after the first 3, which compile,
and before the last). Goal: the median of the run view's per-step figures within 10% of the
median of the plain runs; the frames and gaps of the profiled steps add up to their mean.
The two kinds of run alternate: a shared GPU host's speed drifts by more than 10% between
runs a few seconds apart, and plain runs all taken before the profiled ones would compare
one stretch of that drift with another. Exit status 1 when either fails.
tests/measure/test_gpu_run_view.py runs it on a GPU.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

WITHIN = 0.10
PLAIN_RUNS = 3
WARM_STEPS = 3

LOOP = """
import json, sys, time
import torch

class Block(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = torch.nn.LayerNorm(d)
        self.up = torch.nn.Linear(d, 4 * d)
        self.down = torch.nn.Linear(4 * d, d)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))

class Model(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.first, self.second = Block(d), Block(d)

    def forward(self, x):
        h = self.first(x)
        if torch.isnan(h).any():  # the graph break: a data-dependent branch
            raise FloatingPointError("nan")
        return self.second(h)

out, device, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
torch.manual_seed(0)
d = 256 if device == "cuda" else 128
model = Model(d).to(device)
compiled = torch.compile(model)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(16, 64, d, device=device)
walls = []
for _ in range(steps):
    began = time.perf_counter()
    loss = compiled(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    if device == "cuda":
        torch.cuda.synchronize()
    walls.append((time.perf_counter() - began) * 1e6)
json.dump({"step_us": walls}, open(out, "w"))
"""


def own_step_us(walls: list[float]) -> float:
    """The loop's own time per step: the mean of its steady steps."""
    return statistics.mean(walls[WARM_STEPS:-1])


def _run(args: list[str], workdir: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, TCEXPLORE_CACHE_DIR=str(workdir / "cache"))
    done = subprocess.run(
        args, env=env, capture_output=True, text=True, cwd=workdir, timeout=900, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done


def measure(device: str, steps: int, workdir: Path) -> dict[str, Any]:
    """Every figure of the table, for one device."""
    script = workdir / "loop.py"
    script.write_text(LOOP)
    walls = workdir / "walls.json"
    loop = [str(script), str(walls), device, str(steps)]
    out = workdir / "out.json"
    plain, views, profiled = [], [], []
    for _ in range(PLAIN_RUNS):
        _run([sys.executable, *loop], workdir)
        plain.append(own_step_us(json.loads(walls.read_text())["step_us"]))
        _run(
            [sys.executable, "-m", "tcexplore", "run", *loop, "--profile", "--json", str(out)],
            workdir,
        )
        profiled.append(own_step_us(json.loads(walls.read_text())["step_us"]))
        views.append(json.loads(out.read_text())["profile"]["run"])
    _run(
        [sys.executable, "-m", "tcexplore", "run", *loop, "--json", str(workdir / "run.json")],
        workdir,
    )
    captured = own_step_us(json.loads(walls.read_text())["step_us"])
    figures = [v["step_time"]["per_step_us"] for v in views]
    # the run whose figure is the median, for its table rows and its parts
    view = views[figures.index(statistics.median_low(figures))]
    steady = view["steps"]["steady"]
    parts = sum(f["total_us"] for f in view["frames"]) + sum(g["total_us"] for g in view["gaps"])
    return {
        "device": device,
        "plain_us": statistics.median(plain),
        "plain_runs_us": plain,
        "run_us": captured,
        "profile_run_us": statistics.median(profiled),
        "view_us": statistics.median(figures),
        "view_runs_us": figures,
        "view_profiled_us": view["per_step_us"],
        "slowdown": view["unprofiled"]["slowdown"],
        "parts_per_step_us": parts / steady if steady else None,
        "view": view,
    }


def table(found: dict[str, Any]) -> str:
    ms = lambda us: "none timed" if us is None else f"{us / 1e3:.2f} ms"  # noqa: E731
    runs = ", ".join(ms(u) for u in found["plain_runs_us"])
    views = ", ".join(ms(u) for u in found["view_runs_us"])
    unprofiled = found["view"].get("unprofiled") or {}
    rows = [
        ("python loop.py (the loop's own, median of 3)", f"{ms(found['plain_us'])} ({runs})"),
        ("tcexplore run loop.py (the loop's own)", ms(found["run_us"])),
        (
            "tcexplore run --profile loop.py (the loop's own, median of 3)",
            ms(found["profile_run_us"]),
        ),
        (
            "the run view's per-step figure (unprofiled steps, median of 3)",
            f"{ms(found['view_us'])} ({views})",
        ),
        (
            "the run view's profiled steps (frames + gaps), the median run",
            ms(found["view_profiled_us"]),
        ),
        (
            "steps: run, timed without the profiler, profiler windows",
            f"{found['view']['steps'].get('count')}, {unprofiled.get('steps')}, "
            f"{unprofiled.get('windows')} ({unprofiled.get('basis')})",
        ),
        (
            "slowdown the view states",
            "none (no step was timed unprofiled)"
            if found["slowdown"] is None
            else f"{found['slowdown']:.2f}×",
        ),
    ]
    return "\n".join(f"| {a} | {b} |" for a, b in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        found = measure(args.device, args.steps, Path(tmp))
    print(table(found))
    gap = found["view_us"] / found["plain_us"] - 1
    adds = (
        found["parts_per_step_us"] == found["view_profiled_us"]
        or abs(found["parts_per_step_us"] / found["view_profiled_us"] - 1) < 1e-6
    )
    print(
        f"run view vs plain: {gap:+.1%} (goal: within {WITHIN:.0%}); frames + gaps add up to "
        f"the profiled step: {adds}"
    )
    return 0 if abs(gap) <= WITHIN and adds else 1


if __name__ == "__main__":
    sys.exit(main())
