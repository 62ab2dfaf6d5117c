"""The kernel workbench on a GPU: every Triton kernel of three CUDA programs, on its own.

A 4-layer GPT forward + backward (pointwise, reduction and persistent-reduction kernels,
launched once per layer), a max-autotune-no-cudagraphs matmul (a template kernel with its
epilogue) and a user Triton kernel. As on CPU (tests/workbench/test_workbench.py): the compiled
module's launches are recorded, each reproducer relaunches ORIGINAL on the recorded
arguments (bit for bit, except kernels with atomic adds: their order of additions varies,
so they are held to torch.testing's tolerances) and prints its timing (do_bench) and an OK
verdict. Run on the GPU machine: `pytest -m gpu tests/workbench/test_workbench_gpu.py`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tcexplore import Document

from ..conftest import run_program
from .test_workbench import _check, _env

pytestmark = pytest.mark.gpu

PROGRAMS = {"user_triton_kernel": {"user", "pointwise"}, "mm_max_autotune": {"template"},
            "gpt4_train": {"pointwise", "persistent_reduction"}}


@pytest.fixture(scope="module")
def gpu_replays(tmp_path_factory):
    """name -> (run, replay records), each program captured and replayed when first asked
    for (one GPU: one program at a time)."""
    results = {}

    def get(name):
        if name not in results:
            program = Path(__file__).parents[1] / "gpu_programs" / f"{name}.py"
            run = run_program(str(program), tmp_path_factory.mktemp(name))
            assert run.returncode == 0, run.stderr[-3000:]
            results[name] = (run, _check(run, run.workdir / "workbench"))
        return results[name]

    return get


def _run_edited(run, kernel, change, tmp_path) -> subprocess.CompletedProcess:
    text = Document(run.document).kernel(kernel).reproducer()
    head, edited = text.split("\nEDITED = ", 1)
    path = tmp_path / "kernel.py"
    path.write_text(head + "\nEDITED = " + change(edited))
    return subprocess.run([sys.executable, str(path)], env=_env(run), capture_output=True,
                          text=True, timeout=300, check=False)


def _first(run, triton_kind, containing=""):
    return next((f"{c['id']}:{o['kind']}:{k['name']}" for c in run.document["compiles"]
                 for o in c["output_codes"] for k in o["kernels"]
                 if k.get("triton_kind") == triton_kind and containing in k["source"]), None)


@pytest.mark.parametrize("old, new, error", [
    ("tl.load(", "tl.lod(", "`"),  # Triton's compiler rejects it: the line, then its message
    ("xoffset = tl.program_id(0) * XBLOCK", "xoffset = tl.program_id(0) *", "SyntaxError"),
])
def test_a_broken_triton_edit_is_one_line_naming_the_edited_line(gpu_replays, tmp_path, old, new,
                                                                 error):
    run = gpu_replays("user_triton_kernel")[0]
    kernel = _first(run, "pointwise", containing=old)
    proc = _run_edited(run, kernel, lambda text: text.replace(old, new, 1), tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr[-3000:]
    assert proc.stdout.count("\n") == 1, proc.stdout
    line = proc.stdout.strip()
    assert line.startswith(f"ERROR {kernel}: EDITED does not compile: line "), line
    assert "of EDITED (" in line and new.split("(")[0] in line and error in line, line
    assert "Traceback" not in proc.stdout + proc.stderr


def _triton_launches(document):
    return [(f"{c['id']}:{o['kind']}", k["name"], k["triton_kind"]) for c in document["compiles"]
            for o in c["output_codes"] for k in o["kernels"] if k["kind"] == "triton"
            for _ in k["calls"]]


@pytest.mark.parametrize("name", PROGRAMS)
def test_every_triton_kernel_reproduces_the_compiled_module_and_times_itself(gpu_replays, name):
    run, records = gpu_replays(name)
    launches = _triton_launches(run.document)
    assert {kind for _, _, kind in launches} >= PROGRAMS[name]
    names = {f"{where}:{kernel}" for where, kernel, _ in launches}
    triton = [r for r in records if r["kernel"] in names]
    assert len(triton) == len(launches) and {r["kernel"] for r in triton} == names
    failures = [r for r in triton if "error" in r or not r["args_match"] or r["differences"]
                or r["status"] != 0]
    assert failures == [], "\n".join(json.dumps(r) for r in failures[:5])
    for record in triton:
        lines = record["printed"].splitlines()
        assert lines[0].startswith(f"time {record['kernel']}: ORIGINAL "), lines
        assert "triton.testing.do_bench" in lines[0]
        assert lines[-1].startswith(f"OK {record['kernel']}: EDITED (unchanged) matches ORIGINAL")
    # Most launches visibly change what they write; some write what the caching allocator's
    # reused block already held (a mask or softmax recomputed per head), so not all.
    assert sum(bool(r["written"]) for r in triton) >= 2 / 3 * len(triton)
    for kind in sorted({kind for _, _, kind in launches}):  # shown with pytest -rP
        first = next(r for r, (_, _, k) in zip(triton, launches) if k == kind)
        print(kind, first["printed"], sep="\n")
    if name == "gpt4_train":
        assert {r["kernel"].split(":")[1] for r in triton} == {"forward", "backward"}
        assert any(r["launch"] > 1 for r in triton)  # a kernel Inductor launches once per layer


@pytest.mark.parametrize("triton_kind, config", [
    ("pointwise", {"XBLOCK": 128, "num_warps": 2, "num_stages": 1}),
    ("persistent_reduction", {"XBLOCK": 2, "num_warps": 2, "num_stages": 1}),
    ("reduction", {"XBLOCK": 1, "R0_BLOCK": 64, "num_warps": 2, "num_stages": 1}),
])
def test_a_pinned_launch_config_runs_and_matches_the_original(gpu_replays, tmp_path, triton_kind,
                                                             config):
    run = gpu_replays("user_triton_kernel" if triton_kind == "pointwise" else "gpt4_train")[0]
    kernel = _first(run, triton_kind)
    if kernel is None:
        pytest.skip(f"no {triton_kind} kernel in the program on this GPU")
    proc = _run_edited(run, kernel, lambda text: text.replace(
        "EDITED_CONFIG = None", f"EDITED_CONFIG = {config!r}", 1), tmp_path)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    assert lines[0].startswith(f"time {kernel}: ORIGINAL ") and "EDITED (unchanged)" not in lines[0]
    assert lines[-1].startswith(f"OK {kernel}: EDITED matches ORIGINAL")
