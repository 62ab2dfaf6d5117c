"""Where the time goes on CPU: every kernel's measured time, its roofline and the step's
verdict, on three programs whose verdict is not in doubt."""

from __future__ import annotations

import copy
import html

import pytest
import torch

import tcexplore
from tcexplore.document import validate
from tcexplore.findings import decide
from tcexplore.findings.step_verdict import judged
from tcexplore.measure import roofline
from tcexplore.render.html import render_html

# 256 MB: as far out of the CPU's caches as the tensor that measures the bandwidth roof
NUMEL = 64 * 2**20


def chained_pointwise(x):
    for _ in range(12):
        x = x * 1.01 + 0.5
    return x


def fused_pointwise(x):
    # In place: on CPU a fresh 64 MB output costs its page faults on first touch (each call
    # maps new memory), several times the memory traffic itself.
    return x.mul_(0.5).add_(1.0).mul_(x).sub_(3.0)


def matmul(a, b):
    return a @ b


# 16 MB: a fresh output of this size is mapped anew at every call (over glibc's mmap threshold)
FRESH_NUMEL = 4 * 2**20


def fresh_output(x):
    # A fresh output each call: its first-touch page faults and its tanh, not its bytes,
    # hold it far below the bandwidth roof.
    return (x * 2 + 1).tanh() * x


@pytest.fixture(scope="module")
def profiles():
    """One profiled explore() per program, each cold, as its lines come from the post-grad
    graph a cache hit skips."""
    torch.manual_seed(0)
    runs = {
        "overhead": tcexplore.explore(chained_pointwise, torch.randn(8), profile=True,
                                      time_budget_s=0.3, bypass_caches=True),
        "memory": tcexplore.explore(fused_pointwise, torch.randn(NUMEL), profile=True,
                                    time_budget_s=1.0, bypass_caches=True),
        "compute": tcexplore.explore(matmul, torch.randn(1024, 1024),
                                     torch.randn(1024, 1024), profile=True,
                                     time_budget_s=1.0, bypass_caches=True),
        "fresh": tcexplore.explore(fresh_output, torch.randn(FRESH_NUMEL), profile=True,
                                   time_budget_s=0.3, bypass_caches=True),
    }
    return {name: run.document.data for name, run in runs.items()}


@pytest.mark.parametrize("name,verdict", [("overhead", "overhead-bound"),
                                          ("memory", "memory-bound"),
                                          ("compute", "compute-bound")])
def test_step_verdict_names_what_bounds_the_program(profiles, name, verdict):
    step = profiles[name]["profile"]["step"]
    assert step["verdict"] == verdict, step
    assert step["advice"]


def test_documents_with_a_profile_validate(profiles):
    for document in profiles.values():
        validate(document)


def test_every_generated_kernel_and_extern_call_is_timed(profiles):
    for document in profiles.values():
        expected = {k["name"] for c in document["compiles"] for o in c["output_codes"]
                    for k in o["kernels"]}
        rows = document["profile"]["kernels"]
        assert {r["name"] for r in rows} == expected
        for row in rows:
            assert row["time_us"] > 0 and row["calls"] == 1 and row["bytes"] > 0


def test_fused_pointwise_kernel_reaches_a_plausible_share_of_the_measured_bandwidth(profiles):
    profile = profiles["memory"]["profile"]
    (kernel,) = profile["kernels"]
    assert kernel["bytes"] == 2 * NUMEL * 4  # x read and written (in_out_ptr)
    assert kernel["bound"] == "memory"
    ratio = kernel["achieved_gbps"] / profile["peaks"]["bandwidth_gbps"]
    assert 0.2 <= ratio <= 1.2, ratio


def test_matmul_flops_are_torchs_estimate_and_compute_bound(profiles):
    (kernel,) = profiles["compute"]["profile"]["kernels"]
    assert kernel["kind"] == "extern" and kernel["flops"] == 2 * 1024**3
    assert kernel["bound"] == "compute"
    assert profiles["compute"]["profile"]["peaks"]["gflops"]["float32"] > 0


@pytest.mark.parametrize("name", ["memory", "compute"])
def test_kernel_time_accounts_for_the_compiled_region(profiles, name):
    """The kernels' sum is checked against the profiler's own range around the compiled
    call (Dynamo's guards and the wrapper included), where the kernels dominate."""
    profile = profiles[name]["profile"]
    kernel_us = sum(r["time_us"] for r in profile["kernels"])
    assert kernel_us == pytest.approx(profile["step"]["kernel_us"])
    assert 0.9 <= kernel_us / profile["region_us"] <= 1.0


def test_line_times_add_up_to_the_kernel_total_and_name_the_users_line(profiles):
    for document in profiles.values():
        profile = document["profile"]
        lines = profile["lines"]
        assert sum(r["time_us"] for r in lines) == pytest.approx(profile["step"]["kernel_us"])
        assert all(r["file"] == __file__ for r in lines)
    (top,) = profiles["compute"]["profile"]["lines"]
    assert top["code"] == "return a @ b"


def test_profile_gpu_is_kept_as_an_alias(tmp_path, monkeypatch):
    monkeypatch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path))
    document = tcexplore.explore(chained_pointwise, torch.randn(8), profile_gpu=True,
                                 time_budget_s=0.05).document.data
    assert document["profile"]["device"] == "cpu"


def test_run_profile_times_forward_and_backward_kernels_of_a_script(tmp_path, monkeypatch):
    from ..conftest import run_program

    monkeypatch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path / "cache"))
    run = run_program("training_step", tmp_path, ["--profile"])
    assert run.returncode == 0, run.stderr
    validate(run.document)
    profile = run.document["profile"]
    assert profile["scope"] == "run"
    outputs = {run.document["compiles"][r["compile"]]["output_codes"][r["output"]]["kind"]
               for r in profile["kernels"]}
    assert outputs == {"forward", "backward"}
    # the kernels are counted over the steps the profiler recorded whole (of the script's
    # two, the first: the last step's end is told by nothing): each launch line ran once a
    # step; an extern call made from several lines (the backward's matmuls) is a row per line
    recorded = sum(last - first + 1 for first, last in profile["run"]["steps"]["profiled"])
    assert recorded == 1
    for row in profile["kernels"]:
        sites = row["launch_sites"]
        assert [s["calls"] for s in sites] == [recorded] * len(sites), row
        assert row["calls"] == recorded * len(sites)
    assert any(r["label"].endswith("#2") for r in profile["kernels"] if r["kind"] == "extern")
    assert profile["step"]["kernel_us"] <= profile["step"]["wall_us"]
    assert f"tcexplore: profile: {profile['step']['verdict']}" in run.stderr
    assert "return nn.functional.cross_entropy(model(x), y)" in run.stderr


def test_a_grid_says_whether_the_profiles_advice_held():
    from tcexplore.findings.comparison import advice_check

    def row(mode, median_ms, verdict=None, advised=()):
        return {"label": f"inductor / {mode or 'default'} / dynamic=None", "mode": mode,
                "backend": "inductor", "dynamic": None, "median_ms": median_ms,
                "verdict": verdict, "advised_modes": list(advised)}

    graphed = [row(None, 0.09, "overhead-bound", ["reduce-overhead"]),
               row("reduce-overhead", 0.03)]
    check = advice_check(graphed)
    assert check["held"] and check["ratio"] == pytest.approx(3.0)
    assert 'mode="reduce-overhead"' in check["text"] and "held" in check["text"]
    assert not advice_check([graphed[0], row("reduce-overhead", 0.088)])["held"]
    assert advice_check([row(None, 1.0, "memory-bound")]) is None  # no mode to check


def test_a_kernel_far_below_its_roof_says_why_and_the_advice_follows(profiles):
    profile = profiles["fresh"]["profile"]
    (kernel,) = profile["kernels"]
    assert kernel["bytes"] == 2 * FRESH_NUMEL * 4
    assert kernel["page_faults"] is not None
    if 0.2 <= kernel["efficiency"] <= 1.2:
        return  # a machine whose allocator keeps the output mapped: at its roof
    below = kernel["below_roof"]
    assert below["page_faults"] > 0, below  # measured around its launches
    assert below["transcendentals"] == ["tanh"]
    named = {"page_faults": "page faults", "transcendentals": "transcendental"}[below["reason"]]
    assert named in profile["step"]["advice"][0], profile["step"]["advice"]
    assert not any("move fewer bytes" in line for line in profile["step"]["advice"])
    assert profile["peaks"]["fault_us"] > 0
    assert "last-level cache" in profile["peaks"]["how"]


def test_the_bandwidth_roofs_buffer_is_past_the_last_level_cache():
    from tcexplore.measure.caches import cpu_caches, last_level_bytes
    from tcexplore.measure.peaks import LLC_MULTIPLE, copy_bytes

    caches = cpu_caches()
    nbytes = copy_bytes("cpu", caches)
    assert nbytes >= 256 * 2**20
    if caches:  # what the OS reports (Linux sysfs)
        assert nbytes >= LLC_MULTIPLE * last_level_bytes(caches)  # memory allows it here
        assert all(c["bytes"] > 0 and c["instances"] >= 1 for c in caches)


def test_the_verdict_stores_the_figures_it_used_on_cpu_host_time_is_device_time(profiles):
    """On a CPU the rule is the share of the call outside kernels (plus latency-bound
    kernels): the figures are stored, drawn in the report and named by the finding."""
    for document in profiles.values():
        step = document["profile"]["step"]
        basis = step["basis"]
        assert basis["rule"] == "share" and "host_us" not in basis
        assert (basis["wall_us"], basis["kernel_us"]) == (step["wall_us"], step["kernel_us"])
        assert basis["latency_us"] == step["bound_us"]["latency"]
        assert basis["share"] == pytest.approx(
            (step["overhead_us"] + basis["latency_us"]) / step["wall_us"])
        assert (step["verdict"] == "overhead-bound") == (basis["share"] >= basis["threshold"])
        assert basis["line"].startswith("on a CPU host time is device time")
        (finding,) = [f for f in document["findings"] if f["kind"] == "profile"]
        assert f"Decided by: {basis['line']}" in finding["details"]
        assert html.escape(basis["line"]) in render_html(document)


def _on_a_gpu(rows, host_us):
    """A GPU's back-to-back figures (measure/loop.py) around real kernel rows: the host
    issues a call in ``host_us``, the GPU runs it in the rows' time (or the host's, when it
    waits); one synced call pays both and the sync."""
    device_us = sum(r["time_us"] for r in rows)
    loop = {"calls": 50, "batches": 5, "host_us": host_us, "loop_us": max(host_us, device_us),
            "synced_us": host_us + device_us + 50.0, "other_us": 0.0}
    return judged(roofline.step_figures(rows, loop["loop_us"], loop), rows, "cuda")


def test_on_a_gpu_the_step_is_overhead_bound_when_the_gpu_waits_for_the_cpu(profiles):
    """The loop's rule over the memory-bound program's measured kernels: a host quicker
    than the kernels leaves the GPU the bottleneck; a slower one makes the GPU wait."""
    document = copy.deepcopy(profiles["memory"])
    rows = document["profile"]["kernels"]
    device_us = sum(r["time_us"] for r in rows)
    busy, waiting = _on_a_gpu(rows, 0.25 * device_us), _on_a_gpu(rows, 4 * device_us)
    assert (busy["verdict"], busy["basis"]["gpu_waits"]) == ("memory-bound", False)
    assert (waiting["verdict"], waiting["basis"]["gpu_waits"]) == ("overhead-bound", True)
    for step in (busy, waiting):
        basis = step["basis"]
        assert basis["rule"] == "loop" and basis["device_us"] == pytest.approx(device_us)
        assert basis["host_us"] <= basis["synced_us"] and basis["loop_us"] <= basis["synced_us"]
        assert step["wall_us"] == basis["loop_us"]
        document["profile"]["step"] = step
        decide(document)
        validate(document)
        line = document["profile"]["step"]["basis"]["line"]
        assert ("so the GPU waits for the CPU" in line) == basis["gpu_waits"]
        assert "50 calls" in line and html.escape(line) in render_html(document)


def test_on_a_gpu_latency_bound_kernels_still_make_a_step_overhead_bound(profiles):
    """The GPU need not wait: kernels too short to reach a roof are fixed costs too. The
    overhead program's kernels as the roofline classes them where their launches are short
    (latency); on a busy 2-core CPU a launch can outlast LATENCY_US and keep its class,
    which is roofline's to say (test_step_verdict_names_what_bounds_the_program)."""
    rows = [r | {"bound": "latency"} for r in profiles["overhead"]["profile"]["kernels"]]
    device_us = sum(r["time_us"] for r in rows)
    step = _on_a_gpu(rows, 0.5 * device_us)
    assert not step["basis"]["gpu_waits"] and step["basis"]["latency_share"] == 1.0
    assert step["verdict"] == "overhead-bound"


def test_a_gpu_loop_batch_fits_the_launch_queue_and_the_budget():
    from tcexplore.measure.loop import BATCHES, CALLS, QUEUE_LAUNCHES, batch_calls

    assert batch_calls(1, 1e-4, 10.0) == CALLS[1]  # short calls: as many as allowed
    many = batch_calls(100, 1e-4, 10.0)
    assert (many + 1) * 100 <= QUEUE_LAUNCHES  # the lead call's launches queue too
    assert batch_calls(1, 0.01, 0.5) == int(0.5 / BATCHES / 0.01) - 1  # within the budget
    assert batch_calls(5000, 1.0, 0.1) == CALLS[0]  # never fewer than two
