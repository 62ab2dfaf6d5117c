"""The notebook the notebook tests execute, once per session, in a real ipykernel."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .inductor_cache import fresh_inductor_cache

REPO = Path(__file__).resolve().parents[1]
MIME = "application/vnd.tcexplore.v1+json"
HOSTILE = "<img src=x onerror=alert(1)>"

CELLS = {
    "setup": """\
import torch
import tcexplore
%load_ext tcexplore
torch.manual_seed(0)
x = torch.randn(8, 4)
w = torch.randn(4, 4)
g = torch.compile(lambda t: t * 2 + 1, backend="eager", dynamic=False)""",
    "plain": """\
%%tcompile --time-budget 0.05 --out plain
h = (x @ w).relu()
s = h.sum(dim=0) * 2
s + 1""",
    "save": 'plain.save("plain.html")',
    "graph_break": f"""\
%%tcompile --backend aot_eager --time-budget 0.05 --out broken
a = x.sin()
print("{HOSTILE}")
b = a.cos() + 1
b""",
    "recompile": """\
%%tcompile --backend eager --time-budget 0.02 --out recompiled
r1 = g(torch.ones(3))
r2 = g(torch.ones(5))
r1.sum() + r2.sum()""",
    "raises": """\
%%tcompile --backend eager --out failed
before = x * 3
raise ValueError("boom <script>alert(2)</script>")
after = 1""",
    "bad_mode": "%%tcompile --mode nonsense\nx + 1",
    "bad_options": "%%tcompile --options '{bad'\nx + 1",
    "bad_compare": "%%tcompile --compare speed=fast\nx + 1",
    "compare": """\
%%tcompile --compare backends=eager,aot_eager --time-budget 0.02 --out cmp
c = (x * w[0]).tanh()
c.mean()""",
    "define": """\
def halve_then_print(t):
    y = t / 2
    print("in the middle")
    return y - 1""",
    "explore_call": """\
explored = tcexplore.explore(halve_then_print, x, backend="eager", time_budget_s=0.02)
explored""",
    "end": """\
names = ["h", "s", "a", "b", "r1", "r2", "before", "after", "c", "plain", "broken",
         "recompiled", "failed", "cmp"]
print(sorted(n for n in names if n in globals()))
print([row["status"] for row in cmp.rows])
print("alive", 6 * 7)""",
}


@dataclass
class Tour:
    notebook: Any  # the executed nbformat notebook
    directory: Path  # its working directory (plain.html is saved there)
    seconds: float
    updates: dict[str, list[str]]  # cell name -> text/plain of each display update, in order

    def cell(self, name: str) -> Any:
        return next(c for c in self.notebook.cells if c.metadata.get("name") == name)

    def outputs(self, name: str, output_type: str | None = None) -> list[Any]:
        return [o for o in self.cell(name).outputs
                if output_type is None or o.output_type == output_type]

    def bundles(self, name: str) -> list[Any]:
        """The outputs carrying a tcexplore document."""
        return [o for o in self.cell(name).outputs if MIME in o.get("data", {})]

    def stdout(self, name: str) -> str:
        return "".join(o.text for o in self.outputs(name, "stream") if o.name == "stdout")


def named_notebook(cells: dict[str, str]) -> Any:
    """A notebook of one code cell per entry, each named in its metadata (tests find them)."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    for name, source in cells.items():
        cell = nbformat.v4.new_code_cell(source)
        cell.metadata["name"] = name
        notebook.cells.append(cell)
    return notebook


def checkout_env(**extra: str) -> dict[str, str]:
    """The kernel's environment: it must import this checkout's tcexplore, whatever is
    installed."""
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, **extra}


def execute_tour(directory: Path) -> Tour:
    import time

    import nbformat
    from nbclient import NotebookClient

    updates: dict[str, list[str]] = {}

    class RecordingClient(NotebookClient):
        """Keeps the display updates (live progress) that the saved notebook replaces."""

        def process_message(self, msg, cell, cell_index):
            if msg["msg_type"] == "update_display_data":
                updates.setdefault(cell.metadata["name"], []).append(
                    msg["content"]["data"].get("text/plain", ""))
            return super().process_message(msg, cell, cell_index)

    notebook = named_notebook(CELLS)
    client = RecordingClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
                             store_widget_state=True,
                             resources={"metadata": {"path": str(directory)}})
    start = time.perf_counter()
    # the kernel runs in `directory` (resources path), with Inductor's caches empty, as a
    # learner's first session on a fresh machine: what other tests compiled is not its own
    client.execute(env=checkout_env(
        TORCHINDUCTOR_CACHE_DIR=str(fresh_inductor_cache(directory / "inductor-cache"))))
    nbformat.write(notebook, directory / "tour.ipynb")
    return Tour(notebook, directory, time.perf_counter() - start, updates)
