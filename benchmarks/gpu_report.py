"""Eager vs default vs reduce-overhead vs max-autotune-no-cudagraphs on an NVIDIA GPU.

For an MLP, a TransformerEncoderLayer, a small conv net and a GPT-style block stack
(plain torch modules), all in inference under ``torch.no_grad()``: compile time, median
time per call, speedup over eager, max error, kernel count, the share of the compiled
device time spent in CUDA-graph replays, and the top kernels by device time
(torch.profiler).

    python benchmarks/gpu_report.py [--models mlp,encoder,conv,gpt] [--budget 0.5]
"""

from __future__ import annotations

import argparse
import sys

import torch
from torch import nn

import tcexplore

MODES = (None, "reduce-overhead", "max-autotune-no-cudagraphs")


class GPTBlock(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.ln1(x)
        mask = torch.ones(x.shape[1], x.shape[1], dtype=torch.bool, device=x.device).triu(1)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab: int = 1024, dim: int = 256, heads: int = 4, layers: int = 4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.Sequential(*[GPTBlock(dim, heads) for _ in range(layers)])
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(self.blocks(self.embed(tokens)))


def models() -> dict[str, tuple[nn.Module, tuple]]:
    torch.manual_seed(0)
    cuda = torch.device("cuda")
    return {
        "mlp": (
            nn.Sequential(nn.Linear(512, 2048), nn.GELU(), nn.Linear(2048, 512)),
            (torch.randn(256, 512, device=cuda),),
        ),
        "encoder": (
            nn.TransformerEncoderLayer(256, 4, batch_first=True).eval(),
            (torch.randn(16, 128, 256, device=cuda),),
        ),
        "conv": (
            nn.Sequential(
                nn.Conv2d(3, 32, 3, padding=1),
                nn.BatchNorm2d(32),
                nn.ReLU(),
                nn.Conv2d(32, 64, 3, padding=1),
                nn.ReLU(),
                nn.AdaptiveAvgPool2d(1),
                nn.Flatten(),
                nn.Linear(64, 10),
            ).eval(),
            (torch.randn(32, 3, 64, 64, device=cuda),),
        ),
        "gpt": (GPT().eval(), (torch.randint(0, 1024, (8, 128), device=cuda),)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="mlp,encoder,conv,gpt")
    parser.add_argument("--budget", type=float, default=0.5, help="timing seconds per side")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("needs a CUDA GPU")
        return 1
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    header = (
        "model",
        "mode",
        "compile s",
        "eager ms",
        "compiled ms",
        "speedup",
        "max err",
        "kernels",
        "cudagraphed",
        "top kernels (us/call)",
    )
    print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
    for name in args.models.split(","):
        model, inputs = models()[name]
        model = model.cuda()
        for mode in MODES:
            torch.compiler.reset()
            with torch.no_grad():
                exploration = tcexplore.explore(
                    model, *inputs, mode=mode, time_budget_s=args.budget, profile=True
                )
            data, summary = exploration.document.data, exploration.summary()
            if exploration.error:
                print(f"| {name} | {mode or 'default'} | error: {summary['error'][:80]} |")
                continue
            share = data["profile"]["cudagraph_share"]
            top = ", ".join(
                f"{r['name'][:40]} {r['time_us']:.1f}" for r in data["profile"]["kernels"][:3]
            )
            print(
                f"| {name} | {mode or 'default'} | {summary['compile_s']:.1f} | "
                f"{summary['eager_ms']:.3f} | {summary['compiled_ms']:.3f} | "
                f"{summary['speedup']:.2f} | {summary['max_abs_err']:.1e} | "
                f"{summary['kernels']} | {'' if share is None else f'{share:.0%}'} | {top} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
