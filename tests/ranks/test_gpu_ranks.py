"""Distributed runs on 2 GPUs (NCCL): DDP, FSDP2 and functional collectives under
`torchrun -m tcexplore run`, then the multi-rank view (run on the GPU machine:
`pytest -m gpu tests/ranks/test_gpu_ranks.py`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

import tcexplore
from tcexplore.document import validate

from ..conftest import TLPARSE_COUNTED, run_ranks, tlparse_counts

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(
    torch.cuda.device_count() < 2, reason="needs 2 GPUs (one per rank)")]

PROGRAMS = Path(__file__).parents[1] / "gpu_programs"
SCENARIOS = {"ddp": ("ddp_train.py", ["--diverge"]), "fsdp2": ("fsdp2_train.py", ["--diverge"]),
             "funcol": ("funcol_step.py", [])}


@pytest.fixture(scope="module")
def gpu_rank_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("gpu-ranks")
    runs = {name: run_ranks(PROGRAMS / script, args, root / name)
            for name, (script, args) in SCENARIOS.items()}
    for name, run in runs.items():
        print(f"--- {name}\n{run.stderr[-4000:]}")  # the lead quotes these findings
        assert run.returncode == 0, f"{name}:\n{run.stderr[-4000:]}"
    return runs


@pytest.mark.parametrize("name", SCENARIOS)
def test_each_rank_compiles_real_graphs_on_its_gpu_with_nccl(gpu_rank_runs, name):
    for rank in (0, 1):
        document = json.loads((gpu_rank_runs[name].workdir / f"out.rank{rank}.json").read_text())
        validate(document)
        assert document["distributed"]["backend"] == "nccl"
        assert document["distributed"]["rank"] == rank and document["distributed"]["world_size"] == 2
        assert document["summary"]["graphs"] >= 1 and document["summary"]["output_codes"] >= 1
        assert any(k["kind"] == "triton" for c in document["compiles"] for o in c["output_codes"]
                   for k in o["kernels"])


@pytest.mark.parametrize("name", ["ddp", "fsdp2"])
def test_the_rank_with_the_bigger_batch_is_named_with_its_failed_guard(gpu_rank_runs, name):
    view = tcexplore.ranks(gpu_rank_runs[name].workdir / "out.json")
    print(view)
    for finding in view.divergence:
        print(finding["kind"], finding["ranks"], finding["title"], finding["evidence"][:3])
    recompiles = [f for f in view.divergence if f["kind"] == "recompile"]
    assert recompiles and all(f["ranks"] == [1] for f in recompiles)
    assert any("size mismatch at index 0. expected 32, actual 48" in e["text"]
               for f in recompiles for e in f["evidence"] if e["rank"] == 1)


def test_ddp_optimizer_splits_the_graph_at_bucket_boundaries(gpu_rank_runs):
    document = json.loads((gpu_rank_runs["ddp"].workdir / "out.rank0.json").read_text())
    forward = [o for c in document["compiles"] for o in c["output_codes"] if o["kind"] == "forward"]
    assert len(forward) >= 2  # one Inductor module per bucket


def test_functional_collectives_run_alike_on_both_ranks(gpu_rank_runs):
    view = tcexplore.ranks(gpu_rank_runs["funcol"].workdir / "out.json")
    assert view.divergence == []
    for entry in view.data["ranks"]:
        (found,) = entry["collectives"]
        assert {"all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor",
                "wait_tensor"} <= set(found["ops"])


@pytest.mark.parametrize("name", SCENARIOS)
def test_each_rank_log_imports_to_its_documents_counts_and_tlparse(gpu_rank_runs, name, tmp_path):
    run = gpu_rank_runs[name]
    for rank in (0, 1):
        document = json.loads((run.workdir / f"out.rank{rank}.json").read_text())
        imported = tcexplore.load_trace(run.workdir / "trace", rank=rank).data
        assert imported["summary"] == document["summary"]  # unread_events 0 in both
        counts = tlparse_counts(Path(imported["capture"]["path"]), tmp_path / f"tl{rank}")
        assert {k: imported["summary"][k] for k in TLPARSE_COUNTED} == counts
