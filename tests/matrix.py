"""The invariant matrix: programs of the corpus and calls of the notebooks' kind, each under
every configuration that changes what torch does, each document held to tests/invariants.py.

- ``SCRIPT_CONFIGS``: a corpus script (tests/programs, tests/findings_programs) run as
  ``tcexplore run`` does, with each ``torch.compile`` it makes given the configuration's
  arguments where the script did not pass its own (``python tests/matrix.py run CONFIG
  SCRIPT OUT``: one process per run, as a user's);
- ``CALL_CONFIGS``: a call explored (``explore()``) and run as a ``%%tcompile`` cell, with the
  configuration's arguments and options;
- the course notebooks as shipped, and with their ``%%tcompile`` cells made dynamic.

tests/findings/test_invariants.py runs a sample that covers every configuration and every finding
kind; benchmarks/invariant_matrix.py the whole matrix.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SCRIPTS = sorted([*(TESTS / "programs").glob("*.py"), *(TESTS / "findings_programs").glob("*.py")])
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

# torch.compile's arguments per configuration; "caches" runs twice with Inductor's caches
# as the program has them (the default), the second run a warm start; "cold" is a cold
# capture (--bypass-caches).
SCRIPT_CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "dynamic=True": {"dynamic": True},
    "dynamic=False": {"dynamic": False},
    "mode": {"mode": "max-autotune-no-cudagraphs"},
    "fullgraph=True": {"fullgraph": True},
    "caches": {},
    "cold": {},
}
# The same for a call, as explore() and %%tcompile spell them ("caches": explored, or run
# as a cell, twice in one kernel: the second a warm start).
CALL_CONFIGS: dict[str, tuple[dict[str, Any], str | None]] = {
    "default": ({}, ""),
    "dynamic=True": ({"dynamic": True}, "--dynamic"),
    "dynamic=False": ({"dynamic": False}, "--no-dynamic"),
    "mode": ({"mode": "max-autotune-no-cudagraphs"}, "--mode max-autotune-no-cudagraphs"),
    "fullgraph=True": ({"fullgraph": True}, "--fullgraph"),
    "caches": ({}, ""),
    "cold": ({"bypass_caches": True}, "--bypass-caches"),
}
# On a GPU (tests/findings/test_gpu_invariants.py): CUDA graphs, for scripts and calls alike.
GPU_CONFIGS: dict[str, dict[str, Any]] = {"reduce-overhead": {"mode": "reduce-overhead"}}


def _call_config(config: str) -> tuple[dict[str, Any], str | None]:
    if config in GPU_CONFIGS:
        return GPU_CONFIGS[config], f"--mode {GPU_CONFIGS[config]['mode']}"
    return CALL_CONFIGS[config]


@dataclass
class Run:
    """One cell of the matrix: its documents (several for a notebook), how long it took."""

    name: str
    config: str
    documents: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    note: str = ""
    raised: str = ""  # a cell: what it raised that its document does not record as the
    #                   user's, or what the next cell reading what it bound raised


def _configured(compile_fn: Any, kwargs: dict[str, Any]) -> Any:
    """``torch.compile`` with ``kwargs`` as defaults: what the script passes wins."""

    @functools.wraps(compile_fn)
    def compile(model: Any = None, **given: Any) -> Any:
        merged = {**kwargs, **given}
        if model is None:  # @torch.compile(...) with arguments: a decorator
            return functools.partial(compile_fn, **merged)
        return compile_fn(model, **merged)

    return compile


def run_script_configured(config: str, script: str, out: str) -> int:
    """This process runs ``script`` under ``tcexplore run`` with ``config``'s arguments."""
    import torch

    from tcexplore.cli_run import run_script

    torch.compile = _configured(torch.compile, {**SCRIPT_CONFIGS, **GPU_CONFIGS}[config])
    return run_script(script, [], out, None, bypass_caches=config == "cold")


def script_run(script: Path, config: str, workdir: Path) -> Run:
    """``script`` under ``config`` in a fresh process (its own Inductor cache directory: a
    cold start, and for "caches" the run's own warm one after a first run)."""
    workdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(workdir / "inductor-cache"),
               PYTHONUNBUFFERED="1")
    env.pop("TORCH_TRACE", None)
    out = workdir / "doc.json"
    started = time.perf_counter()
    for _ in range(2 if config == "caches" else 1):
        proc = subprocess.run([sys.executable, str(TESTS / "matrix.py"), "run", config,
                               str(script), str(out)],
                              env=env, capture_output=True, text=True, timeout=900, cwd=workdir)
    run = Run(script.stem, config, seconds=time.perf_counter() - started)
    if out.exists():
        run.documents.append(json.loads(out.read_text()))
    else:
        run.note = f"no document (exit {proc.returncode}): {proc.stderr[-2000:]}"
    return run


# Calls of the kind the notebooks make: each a function and its arguments, made fresh.
def _calls(device: str = "cpu") -> dict[str, tuple[Any, tuple[Any, ...]]]:
    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 4))
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_step(x, y):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    def breaks(x):
        y = x.sin()
        print("between the graphs")
        return (y * 2).cos().sum()

    def sized(x):
        if x.size(0) > 100:
            x = x * 2
        return x.relu().sum()

    def scalar(x):  # a break on .item(): its fix a setting (capture_scalar_outputs)
        return x * x.sum().item()

    def compiled_only(x):  # measuring it against eager fails: a failed measurement
        if not torch.compiler.is_compiling():
            raise RuntimeError("this step runs compiled only")
        return x.sin() + 1

    return {
        "train_step": (
            train_step,
            (torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)),
        ),
        "graph_break": (breaks, (torch.randn(32, device=device),)),
        "dynamic_size": (sized, (torch.randn(24, 3, device=device),)),
        "scalar_break": (scalar, (torch.randn(8, device=device),)),
        "compiled_only": (compiled_only, (torch.randn(8, device=device),)),
    }


CALLS = ("train_step", "graph_break", "dynamic_size", "scalar_break", "compiled_only")


def explore_run(name: str, config: str, device: str = "cpu", **extra: Any) -> Run:
    """The call ``name`` explored with ``config`` (and ``extra``: profile=True,
    try_fixes=True, ...); under "caches" explored twice, one document each."""
    import tcexplore

    kwargs, _ = _call_config(config)
    started = time.perf_counter()
    documents = []
    for _ in range(2 if config == "caches" else 1):
        fn, args = _calls(device)[name]
        exploration = tcexplore.explore(fn, *args, time_budget_s=0.05, **kwargs, **extra)
        documents.append(exploration.document.data)
    label = f"explore {config}" + "".join(f" {k}" for k in extra)
    return Run(name, label, documents, time.perf_counter() - started)


def cell_run(shell: Any, name: str, config: str, device: str = "cpu", flags: str = "") -> Run:
    """The call ``name`` as a ``%%tcompile`` cell body with ``config``'s flags (and
    ``flags``: --memory, ...), in ``shell`` (an IPython InteractiveShell with tcexplore
    loaded); under "caches" run twice, one document each."""
    from IPython.utils.capture import capture_output

    given = f"{_call_config(config)[1]} {flags}".strip()
    run = Run(name, f"cell {config}" + (f" {flags}" if flags else ""))
    started = time.perf_counter()
    for _ in range(2 if config == "caches" else 1):
        fn, args = _calls(device)[name]
        shell.user_ns.update(fn=fn, **{f"a{i}": a for i, a in enumerate(args)})
        call = f"fn({', '.join(f'a{i}' for i in range(len(args)))})"
        with capture_output():
            result = shell.run_cell(
                f"%%tcompile {given} --time-budget 0.05 --out matrix_run\nout = {call}\nout"
            )
            # the user's next cell reads what this one bound (a reduce-overhead output, too)
            after = shell.run_cell("[float(t.sum()) for t in [out] if hasattr(t, 'sum')]")
        exploration = shell.user_ns.pop("matrix_run", None)
        # the user's code may raise (a break under fullgraph): the document records it, and
        # the next cell finds `out` unbound; anything else raised is not the user's
        recorded = exploration is not None and exploration.document.data.get("error")
        if not result.success and not recorded:
            run.raised = repr(result.error_in_exec or result.error_before_exec)
        elif result.success and not after.success:
            run.raised = repr(after.error_in_exec or after.error_before_exec)
        if exploration is None:
            run.note = "the cell made no exploration"
            break
        run.documents.append(exploration.document.data)
    run.seconds = time.perf_counter() - started
    return run


def notebook_run(path: Path, dynamic: bool, workdir: Path) -> Run:
    """A course notebook executed in a fresh kernel (notebooks/run_notebooks.py's way), as
    shipped or with each ``%%tcompile`` cell made dynamic (where it names no dynamic of its
    own); every tcexplore document its outputs carry."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    if dynamic:
        for cell in notebook.cells:
            first, _, rest = cell.source.partition("\n")
            if (cell.cell_type == "code" and first.startswith("%%tcompile")
                    and "dynamic" not in first and "--compare" not in first):
                cell.source = f"{first} --dynamic\n{rest}"
    workdir.mkdir(parents=True, exist_ok=True)
    env = {"TORCHINDUCTOR_CACHE_DIR": str(workdir / "inductor-cache"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    started = time.perf_counter()
    run = Run(path.stem, "notebook --dynamic" if dynamic else "notebook")
    client = NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        client.execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    run.seconds = time.perf_counter() - started
    run.documents = list(documents_in(notebook))
    return run


def documents_in(notebook: Any) -> Any:
    """Every one-run tcexplore document in a notebook's outputs (a compare grid's rows too)."""
    from tcexplore.document import MIME_TYPE
    from tcexplore.files.inflate import unpack_document

    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = (output.get("data") or {}).get(MIME_TYPE)
            if not isinstance(data, dict):
                continue
            if "packed" in data:
                data = unpack_document(data, json.loads)
            if data.get("schema") == "tcexplore/1":
                yield data
            for row in data.get("rows") or []:
                if isinstance(row, dict) and isinstance(row.get("document"), dict):
                    yield row["document"]


if __name__ == "__main__" and sys.argv[1:2] == ["run"]:
    sys.exit(run_script_configured(sys.argv[2], sys.argv[3], sys.argv[4]))
