"""torch's warm start on CUDA under `tcexplore run` (run on an NVIDIA GPU: `pytest -m gpu`).

tests/programs/warm_start.py compiles, saves the cache artifacts, resets, loads them in a
fresh cache directory and compiles again. With the caches bypassed (tcexplore's old
default) the second compile failed on the GPU: the Triton bundler expected a cubin that
was never written. With the caches as the program has them it runs as it does alone."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tcexplore.document import validate

from ..conftest import PROGRAMS, TLPARSE_COUNTED, run_program, tlparse_output_codes

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def warm_run(tmp_path_factory):
    return run_program("warm_start", tmp_path_factory.mktemp("gpu_warm_start"))


def test_the_program_alone_runs(tmp_path):
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "cache"))
    alone = subprocess.run([sys.executable, str(PROGRAMS / "warm_start.py")], env=env,
                           capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert alone.returncode == 0, alone.stderr[-3000:]


def test_it_runs_under_tcexplore_and_counts_match_tlparse(warm_run):
    assert warm_run.returncode == 0, warm_run.stderr[-3000:]
    document = warm_run.document
    validate(document)
    assert document["environment"]["gpus"]
    summary = document["summary"]
    assert {k: summary[k] for k in TLPARSE_COUNTED} == warm_run.tlparse_counts
    assert summary["unmapped_nodes"] == 0 and summary["failures"] == 0


def test_two_records_the_second_served_by_the_caches_with_its_time(warm_run):
    first, second = warm_run.document["compiles"]
    assert (first["id"], first["status"]) == ("0/0", "ok")
    assert (second["id"], second["status"]) == ("g2:0/0", "cache_hit")
    assert second["cache_hit"]["cold"] == "0/0"
    (found,) = [f for f in warm_run.document["findings"] if f["kind"] == "cache"]
    assert found["title"].startswith("Warm start: compile g2:0/0 (f) hit the caches, ")
    assert "(compile 0/0: " in found["title"]


def test_output_codes_are_tlparses_and_the_hits_kernels_keep_their_nodes(warm_run):
    ours = [o["text"] for c in warm_run.document["compiles"] for o in c["output_codes"]]
    assert ours == tlparse_output_codes(warm_run.workdir / "tl_out") and len(ours) == 2
    (output,) = warm_run.document["compiles"][1]["output_codes"]
    triton = [k for k in output["kernels"] if k["kind"] == "triton"]
    assert triton and all(k["post_grad_nodes"] for k in triton)
