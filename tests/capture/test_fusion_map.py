"""Every post-grad compute node maps to what computes it, on real torch output.

``tests/data/torch-2.11-h200-events.json.gz`` holds trace events torch 2.11 emitted on an
H200 (post-grad graph, output code, provenance mapping), copied from the TORCH_TRACE logs
of three programs like those in tests/gpu_programs: GPT-2 under reduce-overhead at its
second, dynamic-shape compile; a BERT training step under bf16 autocast (dropout: RNG
seeds); a user Triton kernel writing into ``torch.empty_like``. They let CI check the
GPU-side parsing without a GPU; tests/capture/test_gpu.py runs the programs themselves.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
import torch

import tcexplore
from tcexplore.capture.assemble import Assembler
from tcexplore.capture.events import Event

RECORDED = Path(__file__).parents[1] / "data" / "torch-2.11-h200-events.json.gz"
# A compiled AdamW (foreach) step and a user Triton kernel on relu(x) + 1, recorded on a GPU:
#   python tests/gpu_programs/record_events.py tests/data/gpu-adamw-user-triton-events.json.gz \
#       tests/gpu_programs/adamw_foreach_step.py tests/gpu_programs/user_triton_on_relu.py
GPU_RECORDED = Path(__file__).parents[1] / "data" / "gpu-adamw-user-triton-events.json.gz"


def _assembled(programs):
    assembled = {}
    for name, events in programs.items():
        assembler = Assembler({})
        for metadata, payload in events:
            assembler.feed(Event.from_record(metadata, payload))
        assembled[name] = assembler.finish()["compiles"]
    return assembled


@pytest.fixture(scope="module")
def recorded():
    return _assembled(json.loads(gzip.decompress(RECORDED.read_bytes())))


@pytest.fixture(scope="module")
def gpu_recorded():
    if not GPU_RECORDED.exists():
        pytest.skip(f"{GPU_RECORDED.name} is recorded on a GPU (see GPU_RECORDED above)")
    return _assembled(json.loads(gzip.decompress(GPU_RECORDED.read_bytes()))["programs"])


def _outputs(compiles):
    return {o["kind"]: o for c in compiles for o in c["output_codes"]}


def test_dynamic_shape_launches_keep_their_provenance_handles(recorded):
    # Under dynamic shapes Inductor writes `<kernel>_xnumel = 256*s27` between a launch's
    # comments and the launch; the second GPT-2 layer's kernels are launches of the same
    # kernels as the first's, so only their provenance handles map them.
    output = _outputs(recorded["hf_gpt2_ro"])["inference"]
    assert output["unmapped_nodes"] == [] and output["dead_nodes"] == []
    assert {k["mapping"] for k in output["kernels"]} == {"provenance"}
    mapped = {n for k in output["kernels"] for n in k["post_grad_nodes"]}
    assert {"clone_5", "clone_6", "pow_2", "tanh_1", "mul_282"} <= mapped
    relaunched = next(k for k in output["kernels"]
                      if k["name"] == "triton_poi_fused_add_addmm_mul_pow_tanh_view_5")
    assert relaunched["launches"] == 2 and len(relaunched["handles"]) == 2


def test_rng_seeds_map_to_the_wrapper_call_that_draws_them(recorded):
    forward = _outputs(recorded["hf_bert_train_autocast"])["forward"]
    (seeds,) = [k for k in forward["kernels"] if k["name"] == "aten.randint.low_out"]
    assert seeds["kind"] == "extern" and seeds["mapping"] == "provenance"
    assert seeds["post_grad_nodes"] == ["inductor_seeds_default"]
    assert seeds["source"].startswith("aten.randint.low_out(")


def test_a_value_nobody_uses_is_dead_not_unmapped(recorded):
    # `exp_default` (from the cross-entropy rewrite) has no users: Inductor's scheduler drops
    # it, so no kernel computes it.
    for output in _outputs(recorded["hf_bert_train_autocast"]).values():
        assert output["unmapped_nodes"] == []
        assert output["dead_nodes"] == ["exp_default"]


def test_an_allocation_is_not_compute(recorded):
    output = _outputs(recorded["user_triton_empty_like"])["inference"]
    assert output["unmapped_nodes"] == [] and output["dead_nodes"] == []
    (user_kernel,) = [k for k in output["kernels"] if k["name"] == "add_kernel_0"]
    assert user_kernel["post_grad_nodes"] == ["triton_kernel_wrapper_mutation"]


def test_a_user_triton_kernel_computes_its_launch_and_the_fused_kernel_its_input(gpu_recorded):
    # torch gives both kernels the wrapper, add and relu (the origins of the unrealized
    # input of the wrapper node): each node belongs to the kernel that computes it.
    (output,) = _outputs(gpu_recorded["user_triton_on_relu"]).values()
    (user,) = [k for k in output["kernels"] if k["triton_kind"] == "user"]
    (pointwise,) = [k for k in output["kernels"] if k["triton_kind"] == "pointwise"]
    assert user["aten_ops"] == ["torch.ops.higher_order.triton_kernel_wrapper_mutation"]
    assert sorted(pointwise["aten_ops"]) == ["torch.ops.aten.add.Tensor",
                                             "torch.ops.aten.relu.default"]
    assert output["unmapped_nodes"] == []


def test_the_foreach_kernels_of_a_compiled_adamw_step_compute_every_node(gpu_recorded):
    outputs = [o for c in gpu_recorded["adamw_foreach_step"] for o in c["output_codes"]]
    assert any(k["triton_kind"] == "foreach" for o in outputs for k in o["kernels"])
    for output in outputs:
        assert output["unmapped_nodes"] == []
        foreach = [k for k in output["kernels"] if k["triton_kind"] == "foreach"]
        assert all(k["mapping"] == "provenance" and k["post_grad_nodes"] for k in foreach)


def test_graph_edges_come_from_arguments_not_from_op_names():
    # `sub_1 = torch.ops.aten.sub.Tensor(exp, 2)` uses `exp`, not the node named `sub`.
    torch.compiler.reset()
    with tcexplore.capture() as session:
        torch.compile(lambda x: (x - 1, x.exp() - 2), backend="aot_eager")(torch.randn(4))
    (record,) = session.document.compiles
    nodes = {n["name"]: n for n in record["aot_graphs"]["inference"]["nodes"]}
    assert nodes["sub_1"]["args"] == ["exp"]
    assert "sub_1" not in nodes["sub"]["users"]


def test_no_node_of_a_truncated_graph_is_called_dead(monkeypatch):
    # Past the node limit the users of the last kept nodes are unknown.
    from functools import partial

    from tcexplore.capture.handlers import graphs
    from tcexplore.capture.parsers.fx_text import parse_graph

    monkeypatch.setattr(graphs, "parse_graph", partial(parse_graph, max_nodes=200))
    events = json.loads(gzip.decompress(RECORDED.read_bytes()))["hf_bert_train_autocast"]
    assembler = Assembler({})
    for metadata, payload in events:
        assembler.feed(Event.from_record(metadata, payload))
    outputs = _outputs(assembler.finish()["compiles"]).values()
    assert all(o["dead_nodes"] == [] for o in outputs)
    (record,) = assembler.compiles.values()
    graphs = record["post_grad_graphs"]
    assert all(g["nodes_truncated"] for g in graphs)
