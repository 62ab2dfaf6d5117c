"""The run view on a GPU (#35): a CUDA training loop that breaks once in its forward, under
`tcexplore run --profile`'s profiler (in process, to keep its trace), its per-frame figures
held against the profiler's own "Torch-Compiled Region" ranges summed here independently."""

from __future__ import annotations

import json
import runpy
import statistics
import sys
from pathlib import Path

import pytest
from torch.autograd import DeviceType

from tcexplore.document import validate
from tcexplore.measure.profiled_capture import capture
from tcexplore.measure.run_profile import RunProfile

pytestmark = pytest.mark.gpu

LOOP = Path(__file__).parents[1] / "fixtures" / "run_view" / "train_loop.py"
STEPS = 30
REGION = "Torch-Compiled Region: "
TOLERANCE = 0.20  # the medians of the same trace's ranges against the figures' means (steady steps)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    walls = tmp_path_factory.mktemp("run_view") / "walls.json"
    profiler = RunProfile()
    saved = sys.argv
    sys.argv = [str(LOOP), str(walls), "cuda", str(STEPS)]
    try:
        with capture(on_event=profiler.on_event) as session, profiler.recording():
            runpy.run_path(str(LOOP), run_name="__main__")
    finally:
        sys.argv = saved
    document = session.document
    document = document.with_sections(profile=profiler.section(document.data))
    return document.data, profiler.events(), json.loads(walls.read_text())


def _regions(events):
    """Each region's duration, by compile id, and what is nested in it (host time, us)."""
    out = {}
    for event in events:
        if event.device_type == DeviceType.CPU and event.name.startswith(REGION):
            nested = sum(
                c.time_range.elapsed_us()
                for c in event.cpu_children
                if c.name.startswith(REGION)
            )
            out.setdefault(event.name[len(REGION):], []).append(
                (event.time_range.elapsed_us(), nested)
            )
    return out


def test_gpu_frames_against_the_profilers_own_regions(run):
    data, events, walls = run
    validate(data)
    view = data["profile"]["run"]
    rows = {(f["compile_id"], f["backward"]): f for f in view["frames"]}
    regions = _regions(events)
    resume = next(c["id"] for c in data["compiles"] if c.get("resume_of"))
    first = next(c["id"] for c in data["compiles"] if not c.get("resume_of"))
    gap = next(g for g in view["gaps"] if g["kind"] == "graph_break")
    print(f"headline: {view['headline']}")
    for row in view["frames"]:
        print(f"{row['compile_id']} {'backward' if row['backward'] else 'forward'}: "
              f"{row['entered']} entries, {row['mean_us']:.1f} us each, kernels "
              f"{row['kernel_us'] / max(row['entered'], 1):.1f} us (device), outside "
              f"{row['outside_us'] / max(row['entered'], 1):.1f} us")
    # the resume function's region holds nothing else: its range is its own time
    resume_ranges = statistics.median(d for d, _ in regions[resume])
    print(f"{resume}: profiler region median {resume_ranges:.1f} us, "
          f"run view {rows[(resume, False)]['mean_us']:.1f} us")
    assert rows[(resume, False)]["mean_us"] == pytest.approx(resume_ranges, rel=TOLERANCE)
    # the first frame's region holds its graph, the break's eager code and the resume's region
    own = statistics.median(d - nested for d, nested in regions[first])
    measured = rows[(first, False)]["mean_us"] + gap["total_us"] / gap["count"]
    print(f"{first}: profiler region less nested median {own:.1f} us, run view frame + "
          f"break {measured:.1f} us")
    assert measured == pytest.approx(own, rel=TOLERANCE)
    for row in rows.values():
        assert row["entered"] == view["steps"]["steady"]
        assert row["kernel_us"] > 0
    device = sum(
        k.duration for e in events if e.device_type == DeviceType.CPU for k in e.kernels
    )
    assert sum(r["kernel_us"] for r in rows.values()) <= device


def test_gpu_steps_add_up_to_the_loops_own_time(run):
    data, _, walls = run
    view = data["profile"]["run"]
    # the steps the profiler recorded whole (its windows), less those that compiled
    steady = [
        i
        for first, last in view["steps"]["profiled"]
        for i in range(first, last + 1)
        if i not in view["steps"]["compiled"]
    ]
    total = sum(f["total_us"] for f in view["frames"]) + sum(g["total_us"] for g in view["gaps"])
    own = sum(walls["step_us"][i] for i in steady)
    print(f"steady steps {len(steady)}: run view {total / len(steady):.1f} us per step, "
          f"the loop's own {own / len(steady):.1f} us")
    assert total == pytest.approx(own, rel=0.10)


def _fidelity():
    import importlib.util

    path = Path(__file__).parents[2] / "benchmarks" / "run_view_fidelity.py"
    spec = importlib.util.spec_from_file_location("run_view_fidelity", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gpu_the_run_views_step_is_the_plain_loops(tmp_path):
    """#40: the per-step table of a training loop (30 steps, a graph break, eager AdamW):
    plain and under `tcexplore run --profile` (3 processes each, in alternation), under
    `tcexplore run`, and the run view's figure, whose median is the plain loop's within 10%;
    the profiled steps' frames and gaps add up to their mean."""
    bench = _fidelity()
    found = bench.measure("cuda", 30, tmp_path)
    print("\n" + bench.table(found))
    assert found["view_us"] == pytest.approx(found["plain_us"], rel=bench.WITHIN)
    assert found["parts_per_step_us"] == pytest.approx(found["view_profiled_us"])
    plain = found["view"]["unprofiled"]
    assert plain["basis"] == "markers" and plain["steps"] >= 15
    assert found["slowdown"] == pytest.approx(found["view_profiled_us"] / found["view_us"])
    note = found["view"]["step_time"]["slowdown_note"]
    assert (note is not None) == (found["slowdown"] > 1.1)
    names = {n["name"] for g in found["view"]["gaps"] for n in g["names"]}
    assert "Optimizer.step#AdamW.step" in names
