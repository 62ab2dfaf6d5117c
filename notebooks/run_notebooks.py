#!/usr/bin/env python
"""Execute course notebooks headless and report each one's check.

    python notebooks/run_notebooks.py                        # 04 05 06 08, the GPU half
    python notebooks/run_notebooks.py 01 03 --out executed   # chosen ones; executed copies kept
    python notebooks/run_notebooks.py --save-data notebooks/data        # re-save 06's data only
    python notebooks/run_notebooks.py 04 05 06 08 --save-data notebooks/data --out executed

Each notebook runs as a learner would run it: top to bottom in a fresh ``python3`` kernel
(nbclient), working directory notebooks/, with this checkout first on the kernel's
PYTHONPATH. It passes when no cell raised and its last cell, the exercise check, printed
``CHECK PASSED``. The exit status is 1 if any notebook failed.

``--save-data DIR`` first re-makes the saved GPU run notebook 06 shows on machines without
CUDA: ``tcexplore run tests/gpu_programs/cuda_modes.py reduce-overhead`` from the
repository root, written to ``DIR/modes_reduce-overhead.json`` (needs an NVIDIA GPU).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parent
REPO = NOTEBOOKS.parent
MARKER = "CHECK PASSED"
GPU_HALF = ("04", "05", "06", "08")
SAVED_RUN = "modes_reduce-overhead.json"


@dataclass
class Outcome:
    """What one executed notebook showed."""

    name: str
    seconds: float
    errors: list[str]  # "cell N: Type: message" for every cell that raised
    check_output: str  # what the last cell (the check) printed
    notebook: object  # the executed nbformat notebook, outputs included

    @property
    def passed(self) -> bool:
        return not self.errors and MARKER in self.check_output


def find(names: list[str]) -> list[Path]:
    """Notebook paths from numbers (``04``), stems or file names."""
    paths = []
    for name in names:
        matches = sorted(NOTEBOOKS.glob(f"{name}*.ipynb")) or [Path(name)]
        if len(matches) != 1 or not matches[0].is_file():
            raise SystemExit(f"no single notebook matches {name!r}: {[m.name for m in matches]}")
        paths.append(matches[0])
    return paths


def execute(path: Path, *, timeout: int = 600, env: dict[str, str] | None = None) -> Outcome:
    """Run ``path`` in a fresh kernel; cells that raise are recorded, not fatal."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    kernel_env = {**os.environ, **(env or {})}
    kernel_env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO), kernel_env.get("PYTHONPATH")]))  # this checkout's tcexplore
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    start = time.perf_counter()
    client.execute(env=kernel_env)
    seconds = time.perf_counter() - start
    code = [c for c in notebook.cells if c.cell_type == "code"]
    errors = [f"cell {i}: {o.ename}: {o.evalue}" for i, c in enumerate(notebook.cells)
              if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    errors += [f"cell {i}: traceback on stderr" for i, c in enumerate(notebook.cells)
               if c.cell_type == "code" for o in c.outputs
               if o.output_type == "stream" and o.name == "stderr" and "Traceback" in o.text]
    check = "".join(o.text for o in code[-1].outputs
                    if o.output_type == "stream" and o.name == "stdout") if code else ""
    return Outcome(path.stem, seconds, errors, check, notebook)


def save_gpu_run(directory: Path) -> Path:
    """Re-make notebook 06's saved exploration from a live reduce-overhead run."""
    import torch

    if not torch.cuda.is_available():
        raise SystemExit("--save-data needs an NVIDIA GPU: the saved run is a CUDA-graph run")
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / SAVED_RUN
    # Run from the repository root with a relative path, so the document names the program
    # as tests/gpu_programs/cuda_modes.py, as notebooks/README.md says.
    subprocess.run([sys.executable, "-m", "tcexplore", "run", "tests/gpu_programs/cuda_modes.py",
                    "reduce-overhead", "--json", str(target.resolve())],
                   cwd=REPO, check=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                       filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))})
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("notebooks", nargs="*",
                        help=f"numbers or names (default {' '.join(GPU_HALF)}; none with "
                             "--save-data alone)")
    parser.add_argument("--out", type=Path, help="write the executed notebooks here")
    parser.add_argument("--save-data", type=Path, metavar="DIR",
                        help=f"first re-save notebook 06's {SAVED_RUN} into DIR (GPU)")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell")
    args = parser.parse_args(argv)

    if args.save_data:
        print(f"saved GPU run written to {save_gpu_run(args.save_data)}", flush=True)
    names = args.notebooks or ([] if args.save_data else list(GPU_HALF))
    outcomes = []
    for path in find(names):
        outcome = execute(path, timeout=args.timeout)
        outcomes.append(outcome)
        if args.out:
            import nbformat

            args.out.mkdir(parents=True, exist_ok=True)
            nbformat.write(outcome.notebook, args.out / path.name)
        verdict = "CHECK PASSED" if outcome.passed else "FAILED"
        print(f"{outcome.name}: {verdict} ({outcome.seconds:.1f} s)", flush=True)
        for error in outcome.errors:
            print(f"    {error}")
        if not outcome.passed:
            print(f"    check cell printed: {outcome.check_output.strip()!r}")
    if outcomes:
        failed = sum(not o.passed for o in outcomes)
        print(f"notebooks: {len(outcomes) - failed} passed their check, {failed} failed")
    return 1 if any(not o.passed for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
