"""How close tcexplore's medians are to the reference timers, as ratios in one run.

CPU: ``median_ms`` against ``torch.utils.benchmark.Timer.blocked_autorange``; GPU:
``device_median_ms`` (GPU time, L2 flushed) against ``triton.testing.do_bench`` (median
mode). On the GPU ``median_ms`` (time per call to completion, launch overhead included)
is printed too: for small launch-bound calls it is rightly larger than do_bench's figure.
For each callable both timers run in alternation (``--rounds``) and the median of the
per-round ratios is reported. Target: within ±5% (goal ±3%).

    python benchmarks/timing_fidelity.py [--rounds 5] [--budget 0.5]
"""

from __future__ import annotations

import argparse
import statistics
import sys

import torch
import torch.utils.benchmark as benchmark

from tcexplore.measure.timing import measure


def cases(device: str) -> dict[str, object]:
    torch.manual_seed(0)
    a, b = torch.randn(256, 256, device=device), torch.randn(256, 256, device=device)
    big = torch.randn(1 << 20, device=device)
    tiny = torch.randn(16, device=device)
    mlp = torch.nn.Sequential(
        torch.nn.Linear(128, 512), torch.nn.GELU(), torch.nn.Linear(512, 128)
    ).to(device)
    x = torch.randn(64, 128, device=device)
    compiled_gelu = torch.compile(lambda t: torch.nn.functional.gelu(t) * 2)
    compiled_gelu(big)
    with torch.no_grad():
        return {
            "matmul 256": lambda: a @ b,
            "add 1M": lambda: big + 1,
            "add 16 (launch-bound)": lambda: tiny + 1,
            "MLP forward": lambda: mlp(x).detach(),
            "compiled gelu 1M": lambda: compiled_gelu(big),
        }


def reference_ms(fn, device: str, budget: float) -> float:
    if device == "cuda":
        import triton.testing  # noqa: PLC0415 - GPU only

        return triton.testing.do_bench(fn, return_mode="median")
    # Timer runs single-threaded unless told otherwise; time both with the same threads.
    timer = benchmark.Timer(stmt="fn()", globals={"fn": fn}, num_threads=torch.get_num_threads())
    return timer.blocked_autorange(min_run_time=budget).median * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.5, help="seconds per timer per round")
    args = parser.parse_args()
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    reference_name = {"cpu": "torch.utils.benchmark", "cuda": "triton do_bench"}
    worst = 0.0
    print(
        f"{'device':6} {'case':24} {'tcexplore ms':>13} {'reference ms':>13} {'ratio':>7}  reference"
    )
    for device in devices:
        for name, fn in cases(device).items():
            ratios, ours_all, ref_all, wall = [], [], [], []
            for _ in range(args.rounds):
                (ours,) = measure(fn, cuda=device == "cuda", budget_s=args.budget)
                ref = reference_ms(fn, device, args.budget)
                figure = ours.device_median_ms if device == "cuda" else ours.median_ms
                ours_all.append(figure)
                ref_all.append(ref)
                ratios.append(figure / ref)
                wall.append(ours.median_ms)
            ratio = statistics.median(ratios)
            worst = max(worst, abs(ratio - 1))
            print(
                f"{device:6} {name:24} {statistics.median(ours_all):13.5f} "
                f"{statistics.median(ref_all):13.5f} {ratio:7.3f}  {reference_name[device]}"
                + (
                    f" (per call to completion: {statistics.median(wall):.5f} ms)"
                    if device == "cuda"
                    else ""
                )
            )
    verdict = "PASS" if worst <= 0.05 else "FAIL"
    print(f"\nworst deviation {worst:.1%} (target ±5%, goal ±3%): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
