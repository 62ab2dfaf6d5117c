"""On a GPU: every kernel and extern call of HF Mixtral (small config), whose experts call
transformers' own op, reproduces standalone from a directory of its own.
Run on the GPU machine: `pytest -m gpu tests/test_custom_ops_gpu.py -s` (prints the count)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tcexplore.workbench import all_kernels

from .conftest import run_program

pytestmark = pytest.mark.gpu


def test_every_mixtral_kernel_reproduces_with_transformers_op(tmp_path_factory):
    pytest.importorskip("transformers", reason="HF Mixtral needs transformers")
    program = Path(__file__).parent / "gpu_programs" / "mixtral_small.py"
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
    failed = []
    for number, kernel in enumerate(kernels):
        path = out / f"{number}.py"
        path.write_text(kernel.reproducer())
        proc = subprocess.run([sys.executable, path.name], cwd=out, env=env, capture_output=True,
                              text=True, timeout=300, check=False)
        if proc.returncode != 0:
            failed.append((kernel.qualified_name, proc.stderr[-800:]))
    print(f"Mixtral: {len(kernels) - len(failed)} of {len(kernels)} kernels and extern calls "
          "reproduce standalone")
    assert not failed, failed
