"""Where the time goes on a GPU: the three verdicts, one kernel's bandwidth checked against
Triton's own benchmark, the launch-bound advice checked by compare(), and the top lines of
a Hugging Face GPT-2 training step."""

from __future__ import annotations

import pytest
import torch

import tcexplore

pytestmark = pytest.mark.gpu


def chained_pointwise(x):
    for _ in range(12):
        x = x * 1.01 + 0.5
    return x


def fused_pointwise(x):
    return (x * 2 + 1) * x - 3


def matmul(a, b):
    return a @ b


@pytest.fixture(scope="module")
def profiles(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        torch.manual_seed(0)
        cuda = {"device": "cuda"}
        runs = {
            "overhead": tcexplore.explore(chained_pointwise, torch.randn(8, **cuda),
                                          profile=True, time_budget_s=0.3),
            "memory": tcexplore.explore(fused_pointwise, torch.randn(64 * 2**20, **cuda),
                                        profile=True, time_budget_s=0.5),
            "compute": tcexplore.explore(matmul, torch.randn(4096, 4096, **cuda),
                                         torch.randn(4096, 4096, **cuda), profile=True,
                                         time_budget_s=0.5),
        }
    for name, run in runs.items():
        step = run.document.data["profile"]["step"]
        print(f"{name}: {step['verdict']}, wall {step['wall_us']:.1f} us, kernels "
              f"{step['kernel_us']:.1f} us; "
              + "; ".join(f"{k['name']} {k['time_us']:.1f} us {k['bound']} "
                          f"{k['achieved_gbps'] or 0:.0f} GB/s {k['achieved_gflops'] or 0:.0f} GFLOP/s"
                          for k in run.document.data["profile"]["kernels"]))
    return {name: run.document.data for name, run in runs.items()}


@pytest.mark.parametrize("name,verdict", [("overhead", "overhead-bound"),
                                          ("memory", "memory-bound"),
                                          ("compute", "compute-bound")])
def test_gpu_step_verdict(profiles, name, verdict):
    assert profiles[name]["profile"]["step"]["verdict"] == verdict


def test_pointwise_bandwidth_agrees_with_triton_do_bench(profiles):
    from triton.testing import do_bench

    (kernel,) = [k for k in profiles["memory"]["profile"]["kernels"] if k["kind"] == "triton"]
    x = torch.randn(64 * 2**20, device="cuda")
    compiled = torch.compile(fused_pointwise)
    compiled(x)
    independent_gbps = 2 * x.numel() * 4 / (do_bench(lambda: compiled(x)) * 1e-3) / 1e9
    print(f"profile {kernel['achieved_gbps']:.0f} GB/s, do_bench {independent_gbps:.0f} GB/s")
    assert kernel["achieved_gbps"] == pytest.approx(independent_gbps, rel=0.10)


def test_one_kernel_call_is_not_advised_cuda_graphs(profiles):
    """A single fused kernel: the call's cost is guards and Python, not launches."""
    step = profiles["overhead"]["profile"]["step"]
    assert step["launches"] == 1 and step["advised_modes"] == []


def tiny_layers(x, weights):
    for w in weights:
        x = (x @ w).relu()
    return x


def test_reduce_overhead_advice_holds_on_the_launch_bound_program(tmp_path, monkeypatch):
    monkeypatch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path))
    weights = [torch.randn(16, 16, device="cuda") for _ in range(12)]
    x = torch.randn(8, 16, device="cuda")
    torch.compiler.reset()
    grid = tcexplore.compare(tiny_layers, x, weights, modes=[None, "reduce-overhead"],
                             time_budget_s=0.5, profile=True)
    base = grid.rows[0]["exploration"].profile["step"]
    default, graphed = (row["median_ms"] for row in grid.rows)
    print(f"{base['verdict']}, {base['launches']:.0f} launches; default {default * 1e3:.1f} us, "
          f"reduce-overhead {graphed * 1e3:.1f} us ({default / graphed:.2f}x); "
          f"{(grid.advice_check or {}).get('text')}")
    assert base["verdict"] == "overhead-bound" and "reduce-overhead" in base["advised_modes"]
    assert default / graphed >= 1.5
    assert grid.advice_check["held"] and grid.advice_check["mode"] == "reduce-overhead"


def test_gpt2_training_step_top_lines(tmp_path, monkeypatch):
    from transformers import GPT2Config, GPT2LMHeadModel

    monkeypatch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path))
    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=256, n_head=4, vocab_size=1024,
                                       n_positions=256)).cuda()
    ids = torch.randint(0, 1024, (8, 128), device="cuda")

    def train_step(ids):
        loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        return loss.detach()

    profile = tcexplore.explore(train_step, ids, profile=True,
                                time_budget_s=0.5).document.data["profile"]
    for line in profile["lines"][:8]:
        print(f"{line['time_us']:9.1f} us {line['share'] or 0:6.1%}  "
              f"{(line['file'] or '-').rsplit('/', 1)[-1]}:{line['line']}  {line['code']}")
    print("verdict:", profile["step"]["verdict"], profile["step"]["advice"][0])
    kinds = {k["kind"] for k in profile["kernels"]}
    assert {"triton", "extern"} <= kinds
    assert any("modeling_gpt2.py" in (line["file"] or "") for line in profile["lines"][:5])
    assert sum(line["time_us"] for line in profile["lines"]) == pytest.approx(
        profile["step"]["kernel_us"])


def test_each_linear_on_the_gpu_has_its_own_launch_time_and_line(tmp_path, monkeypatch):
    """The cuBLAS call of each Linear is its own row with the device time of its own
    launch, charged to its own line; the lines add up to the kernels and every launch
    statement of the output code is counted once per call."""
    from .test_profile_launches import LINEARS, ThreeLinears

    monkeypatch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path))
    torch.manual_seed(0)
    model, x = ThreeLinears().cuda(), torch.randn(512, 32, device="cuda")
    for _ in range(2):  # explore, then explore again in the same process
        document = tcexplore.explore(model, x, profile=True, time_budget_s=0.2).document.data
        profile = document["profile"]
        (output,) = [o for c in document["compiles"] for o in c["output_codes"]]
        externs = [r for r in profile["kernels"] if r["kind"] == "extern"]
        print([(r["label"], round(r["time_us"], 1)) for r in profile["kernels"]])
        assert len(externs) == 3 and len({r["kernel"] for r in externs}) == 3
        lines = {ln["line"]: ln for ln in profile["lines"] if ln["file"] and
                 ln["file"].endswith("test_profile_launches.py")}
        calls = [set(lines[line]["kernels"]) & {r["label"] for r in externs} for line in LINEARS]
        assert [len(c) for c in calls] == [1, 1, 1] and len(set.union(*calls)) == 3
        assert all(lines[line]["time_us"] > 0 for line in LINEARS)
        total = sum(r["time_us"] for r in profile["kernels"])
        assert sum(ln["time_us"] for ln in profile["lines"]) == pytest.approx(total)
        statements = sum(len(k["calls"]) for k in output["kernels"])
        sites = [(r["kernel"], s["line"]) for r in profile["kernels"] for s in r["launch_sites"]]
        assert len(sites) == len(set(sites)) == statements
        assert sum(r["calls"] for r in profile["kernels"]) == statements
