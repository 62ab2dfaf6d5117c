"""GPU verdicts from a loop's view (#33 item 6): a memory-bound softmax over 8192x8192 and a
small MLP whose host is the bottleneck, five profiled explores each in one process. The
verdict is the same every run, and the per-call time tcexplore reports is what calls back
to back cost: within 15% of a loop timed here with CUDA events, and of triton's do_bench
for the softmax. The workloads and the independent timers are benchmarks/loop_verdict.py's
(which prints the same figures for a closing note)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tcexplore.document import validate
from tcexplore.findings.profile import unsteady_range

pytestmark = pytest.mark.gpu

RUNS = 5
WITHIN = 0.15


def _bench():
    path = Path(__file__).parents[2] / "benchmarks" / "loop_verdict.py"
    spec = importlib.util.spec_from_file_location("loop_verdict", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    bench = _bench()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        found = {name: bench.explore_runs(name, RUNS, 0.5) for name in bench.EXPECTED}
    for name, rows in found.items():
        print(f"\n{name}:")
        for row in rows:
            print(bench._line(row))
    return bench.EXPECTED, found


@pytest.mark.parametrize("name", ["softmax", "mlp"])
def test_the_verdict_is_the_same_every_run(runs, name):
    expected, found = runs
    assert [row["verdict"] for row in found[name]] == [expected[name]] * RUNS


@pytest.mark.parametrize("name", ["softmax", "mlp"])
def test_per_call_time_is_what_a_back_to_back_loop_pays(runs, name):
    """The per-call time the verdict reports is the loop's, run by run. The timing samples'
    median is a window of its own: where the host is the bottleneck (the MLP) a host's
    speed moves between windows by more than 15% on a shared machine (an H200 host gave
    independent loops of 169-228 µs over five runs, and once a loop of 244 µs beside a
    profiled loop of 170 µs in the same run), so there both are held against the loops of
    all five runs: within 15% of their range. Where tcexplore's own two measurements of
    the cost (the loop batches before the profile, the timing samples) differ by more than
    that, the host's speed changed between them (an H200 host, no process of its own busy:
    a compiled MLP's calls took 158-300 µs in windows a second apart): the step says so,
    with both figures, and the independent loop lies within the range it states."""
    _, found = runs
    loops = [row["loop_us"] for row in found[name]]
    low, high = min(loops) * (1 - WITHIN), max(loops) * (1 + WITHIN)
    for row in found[name]:
        step = row["document"]["profile"]["step"]
        unsteady = unsteady_range(step)
        if unsteady is not None:
            said_low, said_high = unsteady
            assert "Unsteady" in step["unreliable"] and "the host's speed changed" in (
                step["unreliable"]), step["unreliable"]
            assert said_low * (1 - WITHIN) <= row["loop_us"] <= said_high * (1 + WITHIN), row
            continue
        assert step["unreliable"] is None or "Unsteady" not in step["unreliable"]
        if row["basis"]["gpu_waits"]:  # the host's speed: that of the five runs' windows
            assert low <= row["profile_us"] <= high, row
        else:
            assert row["profile_us"] == pytest.approx(row["loop_us"], rel=WITHIN), row
        assert low <= row["timing_us"] <= high, row
        if row["do_bench_us"] is not None:
            assert row["profile_us"] == pytest.approx(row["do_bench_us"], rel=WITHIN), row


@pytest.mark.parametrize("name", ["softmax", "mlp"])
def test_the_verdict_names_the_loop_figures_it_used(runs, name):
    _, found = runs
    for row in found[name]:
        basis = row["basis"]
        assert basis["rule"] == "loop" and basis["loop_us"] == row["profile_us"]
        assert basis["gpu_waits"] == (basis["host_us"] >= basis["device_us"])
        assert basis["gpu_waits"] == (name == "mlp")
        # a single call waits for the sync; calls back to back do not (where the host is
        # the bottleneck the two meet: equal within the noise)
        assert basis["host_us"] <= basis["synced_us"] * (1 + WITHIN)
        assert basis["loop_us"] <= basis["synced_us"] * (1 + WITHIN)
        assert basis["line"] and f"{basis['calls']} calls" in basis["line"]
        validate(row["document"])
