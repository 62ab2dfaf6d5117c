"""The hand-written kernels in kernels/ on a GPU: correct against eager, and as fast as
Inductor's own generated kernel for the same reference code? Device time (L2 flushed,
as triton.testing.do_bench measures), measured side by side in one run.

    python benchmarks/kernels_report.py [--rows 4096] [--cols 1024]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import kernels  # noqa: E402
from tcexplore.measure.timing import measure  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=1024)
    args = parser.parse_args()
    if not (torch.cuda.is_available() and kernels.HAS_TRITON):
        print("needs a CUDA GPU with Triton")
        return 1
    torch.manual_seed(0)
    x = torch.randn(args.rows, args.cols, device="cuda")
    w, b = torch.randn(args.cols, device="cuda"), torch.randn(args.cols, device="cuda")
    cases = {
        "softmax": (lambda: kernels.softmax.op(x), lambda: kernels.softmax.reference(x)),
        "layer_norm": (
            lambda: kernels.layer_norm.op(x, w, b),
            lambda: kernels.layer_norm.reference(x, w, b),
        ),
        "bias_gelu": (
            lambda: kernels.bias_gelu.op(x, b),
            lambda: kernels.bias_gelu.reference(x, b),
        ),
    }
    print(f"inputs {args.rows}x{args.cols} float32 on {torch.cuda.get_device_name()}")
    print(
        f"{'kernel':12} {'max err':>9} {'triton us':>10} {'inductor us':>12} {'eager us':>9} "
        f"{'vs inductor':>12}"
    )
    for name, (hand_written, reference) in cases.items():
        inductor = torch.compile(reference)
        with torch.no_grad():
            error = (hand_written() - reference()).abs().max().item()
            inductor()
            ours, theirs, eager = measure(
                hand_written, inductor, reference, cuda=True, budget_s=0.5
            )
        print(
            f"{name:12} {error:9.2e} {ours.device_median_ms * 1e3:10.2f} "
            f"{theirs.device_median_ms * 1e3:12.2f} {eager.device_median_ms * 1e3:9.2f} "
            f"{theirs.device_median_ms / ours.device_median_ms:11.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
