"""GPU capture: Triton kernels with their fusion groups (run on an NVIDIA GPU: `pytest -m gpu`)."""

from __future__ import annotations

import pytest
import torch

from tcexplore.document import validate

from ..conftest import TLPARSE_COUNTED, run_program

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def cuda_run(tmp_path_factory):
    from pathlib import Path

    program = Path(__file__).parents[1] / "gpu_programs" / "cuda_mlp_train.py"
    return run_program(str(program), tmp_path_factory.mktemp("gpu"))


def _kernels(document, kind):
    return [(o["kind"], k) for c in document["compiles"] for o in c["output_codes"]
            for k in o["kernels"] if k["kind"] == kind]


def test_cuda_capture_counts_match_tlparse(cuda_run):
    validate(cuda_run.document)
    summary = cuda_run.document["summary"]
    assert {k: summary[k] for k in TLPARSE_COUNTED} == cuda_run.tlparse_counts


def test_triton_kernels_carry_their_fused_nodes_and_aten_ops(cuda_run):
    kernels = _kernels(cuda_run.document, "triton")
    assert kernels, "no Triton kernels captured"
    assert {part for part, _ in kernels} == {"forward", "backward"}
    for part, kernel in kernels:
        assert kernel["post_grad_nodes"], (part, kernel["name"])
        assert kernel["aten_ops"], (part, kernel["name"])
        assert kernel["triton_kind"] in {"pointwise", "reduction", "persistent_reduction",
                                         "template", "foreach", "scan"}
        assert "@triton.jit" in kernel["source"]
    assert cuda_run.document["summary"]["unmapped_nodes"] == 0


def test_matmuls_are_extern_calls(cuda_run):
    names = {k["name"] for _, k in _kernels(cuda_run.document, "extern")}
    assert names & {"extern_kernels.mm", "extern_kernels.addmm"}


def test_environment_names_the_gpu(cuda_run):
    env = cuda_run.document["environment"]
    assert env["gpus"] and env["triton"] and env["torch"] == torch.__version__


@pytest.fixture(scope="module")
def mode_runs(tmp_path_factory):
    from pathlib import Path

    program = Path(__file__).parents[1] / "gpu_programs" / "cuda_modes.py"
    runs = {}
    for mode in ("reduce-overhead", "max-autotune"):
        runs[mode] = run_program(str(program), tmp_path_factory.mktemp(mode), [mode])
    return runs


def _record(document, function):
    return next(c for c in document["compiles"] if c["frame"]["function"] == function)


def test_reduce_overhead_records_partitions_and_the_skip_with_its_line(mode_runs):
    document = mode_runs["reduce-overhead"].document
    validate(document)
    assert document["summary"]["unmapped_nodes"] == 0
    head = _record(document, "head")["cudagraphs"]
    assert head["summary"]["cudagraphable"] >= 1 and head["partitions"]
    assert head["recordings"] >= 1
    block = _record(document, "forward")["cudagraphs"]
    (skip,) = block["skips"]
    assert "mutated inputs" in skip["reason"]
    assert any(f["line"] and f["file"].endswith("cuda_modes.py") for f in skip["user_stack"])
    (cuda,) = [s for s in document["pipeline"] if s["name"] == "CUDA graphs"]
    graphed = sum(1 for c in document["compiles"] if c["cudagraphs"]["recordings"])
    assert cuda["active"] and cuda["counts"][0] == f"{graphed} graphed compile" + (
        "" if graphed == 1 else "s")


def test_max_autotune_shows_template_kernels_and_autotuning(mode_runs):
    document = mode_runs["max-autotune"].document
    validate(document)
    assert document["summary"]["unmapped_nodes"] == 0
    kernels = [k for c in document["compiles"] for o in c["output_codes"] for k in o["kernels"]]
    templates = [k for k in kernels if k.get("triton_kind") == "template"]
    assert templates and all(k["post_grad_nodes"] for k in templates)
    assert any(k.get("autotune") for k in kernels if k["kind"] == "triton")
    choices = [a for c in document["compiles"] for a in c["autotuning"]]
    assert choices and choices[0]["stats"]["num_choices"] > 1


def test_explore_on_cuda_times_with_events_and_reports_device_time():
    import tcexplore

    x = torch.randn(256, 256, device="cuda")
    exploration = tcexplore.explore(lambda t: torch.nn.functional.gelu(t).sum(0), x,
                                    time_budget_s=0.2)
    timing = exploration.timing
    assert timing["device"] == "cuda" and exploration.accuracy["ok"]
    for side in ("eager", "compiled"):
        assert 0 < timing[side]["device_median_ms"] <= timing[side]["median_ms"] * 1.5


def test_pending_backward_trap_is_detected_and_explained(tmp_path):
    from pathlib import Path

    program = Path(__file__).parents[1] / "gpu_programs" / "cudagraph_pending_backward.py"
    document = run_program(str(program), tmp_path).document
    validate(document)
    missed = [c["cudagraphs"].get("fast_path_missed") for c in document["compiles"]]
    missed.append(document["runtime"]["cudagraphs"].get("fast_path_missed"))
    (found,) = [m for m in missed if m]
    assert "cudagraph_mark_step_begin" in found["fix"] and "no_grad" in found["fix"]


def test_profile_attributes_device_time_to_generated_kernels():
    import tcexplore

    model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.GELU(),
                                torch.nn.LayerNorm(256)).cuda()
    x = torch.randn(128, 256, device="cuda")
    with torch.no_grad():
        exploration = tcexplore.explore(model, x, time_budget_s=0.1, profile=True)
    profiled = exploration.document.data["profile"]
    generated = {k["name"] for c in exploration.document.compiles for o in c["output_codes"]
                 for k in o["kernels"] if k["kind"] == "triton"}
    triton_rows = [r for r in profiled["kernels"] if r["kind"] == "triton"]
    assert {r["name"] for r in triton_rows} == generated
    assert all(r["time_us"] > 0 and r["bytes"] > 0 and r["bound"] for r in triton_rows)
    extern = [r for r in profiled["kernels"] if r["kind"] == "extern"]  # the matmul
    assert extern and extern[0]["flops"] == 2 * 128 * 256 * 256


def test_profile_reports_the_share_of_device_time_inside_cuda_graphs():
    import tcexplore

    model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.GELU()).cuda()
    x = torch.randn(64, 256, device="cuda")
    torch.compiler.reset()
    with torch.no_grad():
        graphed = tcexplore.explore(model, x, mode="reduce-overhead", time_budget_s=0.1,
                                    profile=True).document.data["profile"]
        torch.compiler.reset()
        plain = tcexplore.explore(model, x, time_budget_s=0.1,
                                  profile=True).document.data["profile"]
    print("graphed:", graphed["cudagraph_share"], [(r["name"], r["kind"], r["time_us"])
                                                   for r in graphed["kernels"]])
    assert graphed["cudagraph_share"] > 0.5  # the rest: copying inputs into the static buffers
    assert any(r["kind"] == "cudagraph" for r in graphed["kernels"])
    assert plain["cudagraph_share"] == 0


REAL_MODELS = ("hf_gpt2_reduce_overhead", "hf_bert_train_autocast", "user_triton_empty_like",
               "adamw_foreach_step", "user_triton_on_relu")


@pytest.fixture(scope="module")
def real_model_runs(tmp_path_factory):
    """Each program in REAL_MODELS run once, when a test first asks for it."""
    from pathlib import Path

    runs = {}

    def run(name):
        if name.startswith("hf_"):
            pytest.importorskip("transformers", reason="the Hugging Face programs need it")
        if name not in runs:
            program = Path(__file__).parents[1] / "gpu_programs" / f"{name}.py"
            runs[name] = run_program(str(program), tmp_path_factory.mktemp(name))
            assert runs[name].returncode == 0, runs[name].stderr[-3000:]
        return runs[name]

    return run


@pytest.mark.parametrize("name", REAL_MODELS)
def test_real_models_map_every_compute_node_and_count_like_tlparse(real_model_runs, name):
    run = real_model_runs(name)
    validate(run.document)
    summary = run.document["summary"]
    assert {k: summary[k] for k in TLPARSE_COUNTED} == run.tlparse_counts
    unmapped = {o["aot_id"]: o["unmapped_nodes"] for c in run.document["compiles"]
                for o in c["output_codes"] if o["unmapped_nodes"]}
    assert summary["unmapped_nodes"] == 0, unmapped


def test_gpt2_dynamic_recompile_is_mapped_by_provenance(real_model_runs):
    document = real_model_runs("hf_gpt2_reduce_overhead").document
    assert document["summary"]["recompiles"] == 1
    dynamic = next(c for c in document["compiles"] if c["symbols"])
    (output,) = dynamic["output_codes"]
    assert "_xnumel = " in output["text"]  # launch preparation between comments and launch
    assert {k["mapping"] for k in output["kernels"]} == {"provenance"}


def test_bert_rng_seeds_map_to_the_wrapper_call_that_draws_them(real_model_runs):
    document = real_model_runs("hf_bert_train_autocast").document
    forwards = [o for c in document["compiles"] for o in c["output_codes"]
                if o["kind"] == "forward"]
    assert forwards
    for output in forwards:
        seeds = [k for k in output["kernels"] if "inductor_seeds_default" in k["post_grad_nodes"]]
        assert [(k["kind"], k["name"]) for k in seeds] == [("extern", "aten.randint.low_out")]


def test_user_triton_kernel_on_empty_like_is_the_compute(real_model_runs):
    document = real_model_runs("user_triton_empty_like").document
    (output,) = [o for c in document["compiles"] for o in c["output_codes"]]
    (user,) = [k for k in output["kernels"] if k["triton_kind"] == "user"]
    assert user["post_grad_nodes"] == ["triton_kernel_wrapper_mutation"]
    assert "empty" not in output["unmapped_nodes"] + output["dead_nodes"]


def test_compiled_adamw_foreach_kernels_compute_every_foreach_node_and_copy(real_model_runs):
    document = real_model_runs("adamw_foreach_step").document
    outputs = [o for c in document["compiles"] for o in c["output_codes"]]
    foreach = [k for o in outputs for k in o["kernels"] if k["triton_kind"] == "foreach"]
    assert foreach, "Inductor wrote no foreach kernel"
    assert all(k["mapping"] == "provenance" and k["post_grad_nodes"] for k in foreach)
    computed = {n for k in foreach for n in k["post_grad_nodes"]}
    assert any(n.startswith("_foreach_") for n in computed) and any(
        n.startswith("copy_") for n in computed)
    assert document["summary"]["unmapped_nodes"] == 0


def test_user_triton_kernel_maps_to_its_launch_and_the_pointwise_kernel_to_relu_add(
        real_model_runs):
    document = real_model_runs("user_triton_on_relu").document
    (output,) = [o for c in document["compiles"] for o in c["output_codes"]]
    (user,) = [k for k in output["kernels"] if k["triton_kind"] == "user"]
    (pointwise,) = [k for k in output["kernels"] if k["triton_kind"] == "pointwise"]
    assert user["aten_ops"] == ["torch.ops.higher_order.triton_kernel_wrapper_mutation"]
    assert sorted(pointwise["aten_ops"]) == ["torch.ops.aten.add.Tensor",
                                             "torch.ops.aten.relu.default"]
    (graph,) = [c["post_grad_graphs"][output["post_grad_graph"]] for c in document["compiles"]]
    assert all(len(n["kernels"]) == 1 for n in graph["nodes"] if n.get("kernels"))


def test_reduce_overhead_skip_is_a_cudagraph_skip_finding_with_its_reason(mode_runs):
    document = mode_runs["reduce-overhead"].document
    found = [f for f in document["findings"] if f["kind"] == "cudagraph_skip"]
    assert found and all(f["severity"] == "warning" for f in found)
    assert any("mutated inputs" in (f["reason"] or "") and "mutated inputs" in f["title"] for f in found)
    assert any(loc["file"].endswith("cuda_modes.py") for f in found for loc in f["locations"])
    assert any("outside CUDA graphs" in f["title"] for f in found if f["reason"])
