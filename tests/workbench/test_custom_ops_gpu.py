"""On a GPU: every kernel and extern call of HF Mixtral (small config), whose experts call
transformers' own op, reproduces standalone from a directory of its own.
Run on the GPU machine: `pytest -m gpu tests/workbench/test_custom_ops_gpu.py -s` (prints the count)."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tcexplore.workbench import all_kernels

from ..conftest import run_program

pytestmark = pytest.mark.gpu


def test_every_mixtral_kernel_reproduces_with_transformers_op(tmp_path_factory):
    pytest.importorskip("transformers", reason="HF Mixtral needs transformers")
    program = Path(__file__).parents[1] / "gpu_programs" / "mixtral_small.py"
    run = run_program(str(program), tmp_path_factory.mktemp("mixtral"))
    assert run.returncode == 0, run.stderr[-3000:]
    recorded = [e for c in run.document["compiles"] for o in c["output_codes"]
                for e in o.get("custom_ops", [])]
    print("custom ops recorded:", sorted({(e["op"], e["module"]) for e in recorded}))
    kernels = all_kernels(run.document)
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(run.workdir / "inductor-cache"),
               TORCHINDUCTOR_COMPILE_THREADS="1")
    env.pop("PYTHONPATH", None)
    out = tmp_path_factory.mktemp("mixtral-repros")

    def reproduce(numbered):
        number, kernel = numbered
        path = out / f"{number}.py"
        path.write_text(kernel.reproducer())
        proc = subprocess.run([sys.executable, path.name], cwd=out, env=env, capture_output=True,
                              text=True, timeout=300, check=False)
        return None if proc.returncode == 0 else (kernel.qualified_name, proc.stderr[-800:])

    # one process per reproducer, several at once (each mostly imports torch and compiles)
    with ThreadPoolExecutor(max(1, min(8, (os.cpu_count() or 2) // 2))) as pool:
        failed = [f for f in pool.map(reproduce, enumerate(kernels)) if f]
    print(f"Mixtral: {len(kernels) - len(failed)} of {len(kernels)} kernels and extern calls "
          "reproduce standalone")
    assert not failed, failed
