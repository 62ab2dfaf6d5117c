"""``run --profile`` of a loop that recompiles: calls that compiled stay out of the per-call
figures, and the profiler's native log lines stay out of stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tcexplore.document import validate
from tcexplore.measure.native_stderr import without_native_noise

from ..inductor_cache import fresh_inductor_cache

# A graph break (its resume function compiles inside the first call) and a new size after
# fifteen calls (a recompile inside the call that meets it). The script times its own last
# calls (after the profiler's windows) as the steady call to compare with.
RECOMPILING_LOOP = '''
import json, statistics, sys, time
import torch

@torch.compile
def step(x):
    y = x * 2 + 1
    torch._dynamo.graph_break()
    return (y.sin() + x.size(0)).sum()

walls = []
for i in range(30):
    began = time.perf_counter()
    step(torch.randn(8 + i // 15))
    walls.append(time.perf_counter() - began)
json.dump({"steady_call_us": statistics.median(walls[-8:]) * 1e6}, open(sys.argv[1], "w"))
'''


@pytest.fixture(scope="module")
def profiled(tmp_path_factory):
    """The loop under `tcexplore run --profile`, in a process of its own (its stderr whole,
    fd 2 included): the document, the script's own steady call, and stderr."""
    workdir = tmp_path_factory.mktemp("recompiling")
    script, out, timed = workdir / "loop.py", workdir / "out.json", workdir / "timed.json"
    script.write_text(RECOMPILING_LOOP)
    env = dict(os.environ, TCEXPLORE_CACHE_DIR=str(workdir / "cache"),
               TORCHINDUCTOR_CACHE_DIR=str(fresh_inductor_cache(workdir / "inductor-cache")))
    run = subprocess.run([sys.executable, "-m", "tcexplore", "run", str(script), str(timed),
                          "--profile", "--json", str(out)],
                         env=env, capture_output=True, text=True, timeout=600, cwd=workdir,
                         check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(out.read_text()), json.loads(timed.read_text()), run.stderr


def test_calls_that_compiled_are_named_by_torchs_compile_ranges_and_left_out(profiled):
    document, _, _ = profiled
    validate(document)
    calls = document["profile"]["calls"]
    assert document["summary"]["recompiles"] >= 2
    assert calls["compiling"] >= 2, (
        "no profiled call holds a compile range: torch may no longer open "
        "'<key> (dynamo_timed)' profiler ranges (_torch_compat.is_compile_range)")
    # a window from the start and one from the recompile: every call of the steps they
    # recorded whole (one call a step) is counted, the one the profiler's stop cut is not
    recorded = document["profile"]["run"]["steps"]["profiled"]
    assert len(recorded) == 2 and recorded[1][0] == 15
    assert calls["steady"] + calls["compiling"] == sum(b - a + 1 for a, b in recorded)
    assert calls["compiling_us"] > document["profile"]["step"]["wall_us"]


def test_the_per_call_time_is_near_the_steady_calls(profiled):
    document, timed, _ = profiled
    calls = document["profile"]["calls"]
    # Compiles inside the calls made it ~10,000x (seconds against ~0.2 ms); a wide bound
    # keeps a loaded CI machine's jitter out of the verdict.
    assert calls["per_call_us"] < 25 * timed["steady_call_us"]
    assert document["profile"]["step"]["wall_us"] <= calls["per_call_us"] * calls["steady"] * 1.01


def test_the_profilers_native_lines_stay_out_of_stderr(profiled):
    *_, stderr = profiled
    assert "USDT" not in stderr
    assert "tcexplore: profile: calls of compiled code: " in stderr  # stderr itself is kept


def test_only_the_native_noise_is_dropped_and_fd_2_is_restored(capfd):
    before = os.fstat(2)
    with pytest.raises(KeyboardInterrupt), without_native_noise():
        os.write(2, b"USDT:2026 SyncActivityProfilerHandler.cpp:52] profiler_start\n")
        os.write(2, b"a real error\n")
        raise KeyboardInterrupt
    after = os.fstat(2)
    assert (before.st_dev, before.st_ino) == (after.st_dev, after.st_ino)
    err = capfd.readouterr().err
    assert "a real error" in err and "USDT" not in err


def test_a_recompiled_frame_names_its_hot_entry_and_the_steps_that_compiled(profiled):
    """The run view of the same loop: each entry of `step` starts a step, all 30 counted,
    profiled or not; the steps where the break's resume function and the new size compiled
    are named and left out; the recompile opened a window of its own, so the new entries'
    steps are profiled too."""
    document, _, _ = profiled
    view = document["profile"]["run"]
    steps = view["steps"]
    assert steps["count"] == 30 and {0, 15} <= set(steps["compiled"])
    assert [first for first, _ in view["unprofiled"]["windows"]] == [0, 15]
    assert view["unprofiled"]["steps"] > 0  # steps outside both windows, timed without it
    forward = [f for f in view["frames"] if not f["backward"]]
    by_frame = {}
    for row in forward:
        by_frame.setdefault(row["compile_id"].split("/")[0], []).append(row)
    assert len(by_frame) == 2  # `step` and its resume function
    for entries in by_frame.values():
        assert len(entries) == 2  # recompiled for the new size
        assert sorted(r["hot"] for r in entries) == [False, True]
        hot = next(r for r in entries if r["hot"])
        assert hot["total_us"] == max(r["total_us"] for r in entries)
        assert sum(r["entered"] for r in entries) == steps["steady"]
