"""``tcexplore demo``: the whole pipeline on a small built-in model, no files of yours needed."""

from __future__ import annotations

import sys
import webbrowser
from pathlib import Path

import torch
from torch import nn

from .files.output import OutputError, unwritable
from .findings.graph_break_audit import graph_break_lines
from .measure.profiled_capture import capture


class TinyBlock(nn.Module):
    """LayerNorm + MLP with a residual, and a data-dependent branch that breaks the graph."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.up = nn.Linear(dim, 4 * dim)
        self.down = nn.Linear(4 * dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.down(torch.nn.functional.gelu(self.up(self.norm(x))))
        if h.abs().mean() > 10:  # data-dependent branch: a graph break
            h = h / 10
        return x + h


def run_demo(out_stem: str, open_browser: bool = True) -> int:
    json_path, html_path = Path(f"{out_stem}.json"), Path(f"{out_stem}.html")
    if problem := unwritable(json_path, html_path):
        print(f"tcexplore demo: {problem}", file=sys.stderr)
        return 2
    torch.manual_seed(0)
    model = TinyBlock()
    compiled = torch.compile(model)
    with capture() as session:
        for batch in (8, 16):  # the second shape triggers a recompile with a dynamic batch
            x = torch.randn(batch, 32)
            compiled(x).sum().backward()
    document = session.document
    try:
        document.save(json_path)
        document.save(html_path)
    except OutputError as exc:
        print(f"tcexplore demo: {exc}", file=sys.stderr)
        return 2
    counts = ", ".join(f"{k} {v}" for k, v in document.summary.items())
    print(f"tcexplore demo: {counts}")
    for line in graph_break_lines(document.graph_break_audit()):
        print(line)
    print(f"wrote {json_path} and {html_path}")
    if open_browser and sys.stdout.isatty():
        webbrowser.open(html_path.resolve().as_uri())
    return 0
