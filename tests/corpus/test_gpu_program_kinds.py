"""Compiled autograd, a nested compile region with backward, and unbacked sizes on CUDA
(run on an NVIDIA GPU: `pytest -m gpu tests/corpus/test_gpu_program_kinds.py`): counts equal
tlparse's, no node unmapped, no traceback of ours."""

from __future__ import annotations

from pathlib import Path

import pytest

from tcexplore.document import validate

from ..conftest import TLPARSE_COUNTED, run_program

pytestmark = pytest.mark.gpu

PROGRAMS = ("compiled_autograd_cuda", "nested_region_train_cuda", "unbacked_sizes_cuda")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = Path(__file__).parents[1] / "gpu_programs"
    return {name: run_program(str(folder / f"{name}.py"), tmp_path_factory.mktemp(name))
            for name in PROGRAMS}


@pytest.mark.parametrize("name", PROGRAMS)
def test_counts_equal_tlparse_and_nothing_is_unmapped(runs, name):
    run = runs[name]
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr[-3000:]
    validate(run.document)
    summary = run.document["summary"]
    assert {k: summary[k] for k in TLPARSE_COUNTED} == run.tlparse_counts
    unmapped = {o["aot_id"]: o["unmapped_nodes"] for c in run.document["compiles"]
                for o in c["output_codes"] if o["unmapped_nodes"]}
    assert summary["unmapped_nodes"] == 0, unmapped
    assert any(k["kind"] == "triton" for c in run.document["compiles"]
               for o in c["output_codes"] for k in o["kernels"])


def test_compiled_autograd_backward_hangs_under_its_step(runs):
    document = runs["compiled_autograd_cuda"].document
    compiles = {c["id"]: c for c in document["compiles"]}
    passes = document["compiled_autograd"]
    assert passes
    for autograd in passes:
        assert autograd["graph"]["nodes"] and autograd["compiles"]
        traced = compiles[autograd["compiles"][0]]
        assert traced["dynamo_graph"] and traced["output_codes"]
        assert compiles[autograd["step"]]["frame"]["function"] == "step"
        assert autograd["call"]["code"] == "loss.backward()"


def test_nested_region_calls_map_to_the_wrapper_forward_and_backward(runs):
    document = runs["nested_region_train_cuda"].document
    (record,) = [c for c in document["compiles"] if c["output_codes"]]
    assert {o["kind"] for o in record["output_codes"]} == {"forward", "backward"}
    for output in record["output_codes"]:
        graph = record["post_grad_graphs"][output["post_grad_graph"]]
        assert graph.get("subgraphs"), output["kind"]
        invokes = [n for n in graph["nodes"] if n["target"].endswith("invoke_subgraph")]
        assert invokes and all(n.get("subgraph_call") for n in invokes)
        inside = [k for k in output["kernels"] if k.get("subgraphs")]
        assert inside and all(k["post_grad_nodes"] for k in inside)


def test_unbacked_symbols_have_their_lines_and_runtime_asserts(runs):
    document = runs["unbacked_sizes_cuda"].document
    shapes = {f["shape"]["symbol"]: f["shape"] for f in document["findings"]
              if f["kind"] == "dynamic_shape"}
    assert {"u0", "u1"} <= set(shapes)
    assert all(s["made_at"] and s["made_at"]["line"] for s in shapes.values())
    assert any(g["kind"] == "runtime_assert" and g["check"]
               for s in shapes.values() for g in s["guards"])
