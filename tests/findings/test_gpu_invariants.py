"""On CUDA: the invariant suite's programs under mode="reduce-overhead" (CUDA graphs), every
document held to tests/invariants.py: the matrix's calls explored and run as ``%%tcompile``
cells on the GPU, and the single-GPU corpus scripts of tests/gpu_programs with
reduce-overhead given to each torch.compile that names no mode of its own.

    python -m pytest tests/findings/test_gpu_invariants.py -m gpu
"""

from __future__ import annotations

import importlib.util

import pytest

from .. import invariants
from ..matrix import CALLS, TESTS, cell_run, explore_run, script_run

pytestmark = pytest.mark.gpu

# Scripts that need torchrun (several ranks), arguments, or are tools, not programs.
NOT_SINGLE = {"ddp_train", "fsdp2_train", "funcol_step", "cuda_modes", "record_events"}
SCRIPTS = sorted(p for p in (TESTS / "gpu_programs").glob("*.py") if p.stem not in NOT_SINGLE)


def _held(run) -> None:
    assert run.documents, f"{run.name} {run.config}: {run.note}"
    for data in run.documents:
        invariants.check(data, report=True)


@pytest.mark.parametrize("name", CALLS)
def test_calls_under_reduce_overhead_hold_the_invariants(name):
    _held(explore_run(name, "reduce-overhead", device="cuda"))


@pytest.mark.parametrize("name", CALLS)
def test_cells_under_reduce_overhead_hold_the_invariants(name):
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "tcexplore")
    run = cell_run(shell, name, "reduce-overhead", device="cuda")
    # the cell's CUDA-graph output, read after tcexplore's replays and by the next cell
    assert not run.raised, run.raised
    _held(run)


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_gpu_scripts_under_reduce_overhead_hold_the_invariants(script, tmp_path):
    if script.stem.startswith(("hf_", "mixtral")) and importlib.util.find_spec("transformers") is None:
        pytest.skip("transformers is not installed here")
    _held(script_run(script, "reduce-overhead", tmp_path))
