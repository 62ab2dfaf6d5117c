"""The first five minutes of a new user, as a notebook executed once per session in a real
kernel: a Hugging Face GPT-2 explored (and profiled), a `%%tcompile` cell whose two call
sites reach a `.item()` graph break and recompile on a second shape, and compare() over
two backends. tests/extension/test_first_screen.py reopens the saved notebook in JupyterLab with no
kernel; docs/screenshots/ is made from it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .notebook_tour import checkout_env, named_notebook

CELLS = {
    "setup": """\
import torch
import tcexplore
from transformers import GPT2Config, GPT2LMHeadModel
%load_ext tcexplore

torch.manual_seed(0)
config = GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=128, n_positions=64)
model = GPT2LMHeadModel(config).eval()
ids = torch.randint(0, 128, (2, 16))""",
    "gpt2": """\
gpt2 = tcexplore.explore(model, ids, time_budget_s=0.3, profile=True)
gpt2""",
    "helpers": """\
def scale(t):
    return t * t.sum().item()

def head(t):
    return scale(t.relu())

def tail(t):
    return scale(t.tanh())""",
    "cell": """\
%%tcompile --time-budget 0.1 --out cell
x = torch.ones(8, 4)
y = head(x) + tail(x)
z = head(torch.ones(6, 4))
y.sum() + z.sum()""",
    "compare": """\
def pointwise(t):
    return (t.sin() * 2 + t.cos()).relu().sum(dim=0)

grid = tcexplore.compare(pointwise, torch.randn(512, 512), backends=["inductor", "aot_eager"],
                         time_budget_s=0.1)
grid""",
}


@dataclass
class FirstScreen:
    notebook: Any  # the executed nbformat notebook
    path: Path  # where it is saved
    seconds: float

    def cell(self, name: str) -> Any:
        return next(c for c in self.notebook.cells if c.metadata.get("name") == name)


def execute_first_screen(directory: Path) -> FirstScreen:
    import time

    import nbformat
    from nbclient import NotebookClient

    notebook = named_notebook(CELLS)
    client = NotebookClient(notebook, timeout=900, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(directory)}})
    start = time.perf_counter()
    client.execute(env=checkout_env())
    path = directory / "first_screen.ipynb"
    nbformat.write(notebook, path)
    return FirstScreen(notebook, path, time.perf_counter() - start)
