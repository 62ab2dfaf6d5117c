"""Reproducers bring the ops of other namespaces their launch calls.

tests/programs/custom_op_own.py defines its own ``torch.library.custom_op`` (reading a module
constant) between two fused kernels. Capture records, per output code, the op and what
registered it (``custom_ops``); every kernel and extern call's reproducer then runs as
``python N.py`` from a temporary directory where the program is not importable.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import torch

from tcexplore import _torch_compat
from tcexplore.workbench import all_kernels
from tcexplore.workbench.custom_ops import section

PROGRAM = "custom_op_own"
OP = "tcx_program::scaled_tanh"


@pytest.fixture(scope="module")
def run(program_runs):
    return program_runs[PROGRAM]


def test_torch_still_says_where_a_custom_op_was_registered():
    @torch.library.custom_op("tcx_test::twice", mutates_args=())
    def twice(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    origin = _torch_compat.custom_op_origin("tcx_test::twice")
    assert origin is not None and origin["module"] == __name__ and origin["function"] is not None
    assert origin["file"].endswith("test_custom_ops.py")
    assert _torch_compat.custom_op_origin("tcx_test::no_such_op") is None
    library = torch.library.Library("tcx_test", "FRAGMENT")
    library.define("thrice(Tensor x) -> Tensor")
    defined = _torch_compat.custom_op_origin("tcx_test::thrice")
    assert defined["file"].endswith("test_custom_ops.py") and defined["module"] == __name__


def test_the_output_code_records_the_programs_op_with_its_definition(run):
    [output] = [o for c in run.document["compiles"] for o in c["output_codes"]]
    [entry] = output["custom_ops"]
    assert entry["op"] == OP and entry["module"] == "__main__"
    assert entry["file"].endswith(f"{PROGRAM}.py")
    assert entry["schema"] == "scaled_tanh(Tensor x) -> Tensor"
    assert "SCALE = 2.0" in entry["source"] and "return torch.tanh(x) * SCALE" in entry["source"]
    assert "@" not in entry["source"]  # decorators would register it under the script's names


def test_every_kernel_and_extern_call_reproduces_outside_the_programs_directory(run, tmp_path):
    kernels = all_kernels(run.document)
    assert {k.kind for k in kernels} == {"cpp", "extern"}
    assert any(k.name == f"torch.ops.{OP.replace('::', '.')}.default" for k in kernels)
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(run.workdir / "inductor-cache"),
               TORCHINDUCTOR_COMPILE_THREADS="1")
    env.pop("PYTHONPATH", None)
    for number, kernel in enumerate(kernels):
        path = tmp_path / f"{number}.py"
        path.write_text(kernel.reproducer())
        proc = subprocess.run([sys.executable, path.name], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300, check=False)
        assert proc.returncode == 0, (kernel.qualified_name, proc.stderr[-2000:])
        assert proc.stdout.splitlines()[-1].startswith(f"OK {kernel.qualified_name}: "), proc.stdout


def test_an_op_nobody_recorded_is_named_with_the_import_it_needs(tmp_path):
    text = "buf1 = torch.ops.tcx_elsewhere.op.default(buf0)\nbuf2 = torch.ops.aten.mm.default(a, b)"
    code = section({}, text)
    assert "aten" not in code
    assert "# tcx_elsewhere::op: import the module that registers it" in code
    path = tmp_path / "needs.py"
    path.write_text("import torch\n" + code + "\n")
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 1
    assert ("this reproducer calls torch.ops.tcx_elsewhere.op, which is not registered here: "
            "import the module that registers it") in proc.stderr


def test_an_op_of_an_importable_module_is_imported():
    code = section({"custom_ops": [{"op": "tcx_lib::op", "module": "tcx_lib.ops"}]},
                   "torch.ops.tcx_lib.op.default(x)")
    assert "import tcx_lib.ops  # registers tcx_lib::op" in code
