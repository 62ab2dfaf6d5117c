"""The kernel workbench on a GPU: every Triton kernel of three CUDA programs, on its own.

A 4-layer GPT forward + backward (pointwise, reduction and persistent-reduction kernels,
launched once per layer), a max-autotune-no-cudagraphs matmul (a template kernel with its
epilogue) and a user Triton kernel. As on CPU (tests/test_workbench.py): the compiled
module's launches are recorded, each reproducer relaunches ORIGINAL on the recorded
arguments (bit for bit, except kernels with atomic adds: their order of additions varies,
so they are held to torch.testing's tolerances) and prints its timing (do_bench) and an OK
verdict. Run on the GPU machine: `pytest -m gpu tests/test_workbench_gpu.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import run_program
from .test_workbench import _check

pytestmark = pytest.mark.gpu

PROGRAMS = {"gpt4_train": {"pointwise", "reduction", "persistent_reduction"},
            "mm_max_autotune": {"template"}, "user_triton_kernel": {"user", "pointwise"}}


@pytest.fixture(scope="module")
def gpu_replays(tmp_path_factory):
    results = {}
    for name in PROGRAMS:  # one GPU: one program at a time
        program = Path(__file__).parent / "gpu_programs" / f"{name}.py"
        run = run_program(str(program), tmp_path_factory.mktemp(name))
        assert run.returncode == 0, run.stderr[-3000:]
        results[name] = (run, _check(run, run.workdir / "workbench"))
    return results


def _triton_launches(document):
    return [(f"{c['id']}:{o['kind']}", k["name"], k["triton_kind"]) for c in document["compiles"]
            for o in c["output_codes"] for k in o["kernels"] if k["kind"] == "triton"
            for _ in k["calls"]]


@pytest.mark.parametrize("name", PROGRAMS)
def test_every_triton_kernel_reproduces_the_compiled_module_and_times_itself(gpu_replays, name):
    run, records = gpu_replays[name]
    launches = _triton_launches(run.document)
    assert {kind for _, _, kind in launches} >= PROGRAMS[name]
    by_kernel = {(r["kernel"].rsplit(":", 1)[0], r["kernel"].rsplit(":", 1)[1]): r
                 for r in records if r["launch"] == 1}
    assert {(where, kernel) for where, kernel, _ in launches} <= set(by_kernel)
    triton = [r for r in records if (r["kernel"].rsplit(":", 1)[0],
                                     r["kernel"].rsplit(":", 1)[1]) in
              {(where, kernel) for where, kernel, _ in launches}]
    assert len(triton) == len(launches)
    failures = [r for r in triton if "error" in r or not r["args_match"] or r["differences"]
                or r["status"] != 0]
    assert failures == [], failures[:5]
    for record in triton:
        lines = record["printed"].splitlines()
        assert lines[0].startswith(f"time {record['kernel']}: ORIGINAL "), lines
        assert "triton.testing.do_bench" in lines[0]
        assert lines[-1].startswith(f"OK {record['kernel']}: EDITED (unchanged) matches ORIGINAL")
    assert sum(bool(r["written"]) for r in triton) >= 0.9 * len(triton)
    if name == "gpt4_train":
        assert {r["kernel"].split(":")[1] for r in triton} == {"forward", "backward"}
        assert any(r["launch"] > 1 for r in triton)  # a kernel Inductor launches once per layer
