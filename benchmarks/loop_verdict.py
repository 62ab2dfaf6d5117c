"""GPU verdicts from a loop's view (#33 item 6): five profiled explores of each workload in
one process, each printed with its verdict, the figures that decided it, the per-call times
tcexplore reports, and the same call timed independently of tcexplore: a back-to-back loop
under CUDA events (and, for the softmax, triton's do_bench).

Workloads: ``softmax(x * 0.5)`` over an 8192x8192 float32 tensor (one memory-bound kernel,
about 130 µs on an H200: the GPU is the bottleneck), and a small MLP (two Linear layers and
a GELU on a 64x256 batch: kernels of a few µs, the host is the bottleneck).

    PYTHONPATH=. python benchmarks/loop_verdict.py [--runs 5] [--budget 0.5]

tests/measure/test_gpu_loop_verdict.py runs the same workloads and checks the verdict is the same
every run and each per-call time within 15% of the independent loop.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from typing import Any

import torch

import tcexplore

EXPECTED = {"softmax": "memory-bound", "mlp": "overhead-bound"}
LOOP_CALLS = 200
LOOP_REPEATS = 5


def softmax_scaled(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x * 0.5, dim=-1)


def workload(name: str) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """The function named and its arguments, on CUDA."""
    torch.manual_seed(0)
    if name == "softmax":
        return softmax_scaled, (torch.randn(8192, 8192, device="cuda"),)
    model = torch.nn.Sequential(
        torch.nn.Linear(256, 1024), torch.nn.GELU(), torch.nn.Linear(1024, 256)
    ).cuda()

    def mlp(x: torch.Tensor) -> torch.Tensor:
        return model(x)

    return mlp, (torch.randn(64, 256, device="cuda"),)


def loop_us(call: Callable[[], Any], calls: int = LOOP_CALLS, repeats: int = LOOP_REPEATS) -> float:
    """Per call, µs: CUDA events around ``calls`` back-to-back calls after a sync (the
    start-up amortised over the calls), median of ``repeats``."""
    per_call = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        start.record()
        for _ in range(calls):
            call()
        end.record()
        end.synchronize()
        per_call.append(start.elapsed_time(end) * 1e3 / calls)
    return statistics.median(per_call)


def do_bench_us(call: Callable[[], Any]) -> float:
    from triton.testing import do_bench  # noqa: PLC0415 - GPU only

    return do_bench(call, return_mode="median") * 1e3


def explore_runs(name: str, runs: int, budget_s: float) -> list[dict[str, Any]]:
    """``runs`` profiled explores of one workload in this process, each followed by the
    independent timers on a function compiled once, apart from tcexplore."""
    fn, args = workload(name)
    independent = torch.compile(fn)
    for _ in range(3):
        independent(*args)
    rows = []
    for _ in range(runs):
        data = tcexplore.explore(fn, *args, profile=True, time_budget_s=budget_s).document.data
        step = data["profile"]["step"]
        rows.append(
            {
                "verdict": step["verdict"],
                "basis": step["basis"],
                "profile_us": step["wall_us"],
                "timing_us": data["timing"]["compiled"]["median_ms"] * 1e3,
                "loop_us": loop_us(lambda: independent(*args)),
                "do_bench_us": do_bench_us(lambda: independent(*args))
                if name == "softmax"
                else None,
                "document": data,
            }
        )
    return rows


def _line(row: dict[str, Any]) -> str:
    basis = row["basis"]
    bench = f", do_bench {row['do_bench_us']:.1f}" if row["do_bench_us"] is not None else ""
    return (
        f"  {row['verdict']:15} per call {row['profile_us']:7.1f} µs (timing median "
        f"{row['timing_us']:7.1f}) | independent loop {row['loop_us']:7.1f}{bench} | host "
        f"{basis['host_us']:6.1f}, GPU {basis['device_us']:6.1f}, one call + sync "
        f"{basis['synced_us']:6.1f} µs"
        + (
            " | unsteady host"
            if "Unsteady" in (row["document"]["profile"]["step"].get("unreliable") or "")
            else ""
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.5, help="explore's time_budget_s")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("needs a CUDA GPU", file=sys.stderr)
        return 2
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    worst, stable = 0.0, True
    for name in EXPECTED:
        rows = explore_runs(name, args.runs, args.budget)
        print(f"{name} (expected {EXPECTED[name]}):")
        for row in rows:
            print(_line(row))
            worst = max(
                worst,
                abs(row["profile_us"] / row["loop_us"] - 1),
                abs(row["timing_us"] / row["loop_us"] - 1),
            )
        stable = stable and {row["verdict"] for row in rows} == {EXPECTED[name]}
    print(
        f"verdict the same every run: {stable}; worst per-call gap to the independent "
        f"loop: {worst:.1%} (goal: within 15%)"
    )
    return 0 if stable and worst <= 0.15 else 1


if __name__ == "__main__":
    sys.exit(main())
