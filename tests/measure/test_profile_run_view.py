"""The run view (#35, #40): a training loop whose forward breaks once, with an eager AdamW,
under `tcexplore run --profile`: its first steady steps profiled, told into steps; each
compile's entries, the eager gap put down to the break's line, the figures against the
loop's own wall time; the steps after the profiler stopped timed without it, the per-step
figure every view shows, and the eager optimizer named. Then explore(profile=True), where
a step is a call."""

from __future__ import annotations

import copy
import html
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import tcexplore
from tcexplore.common.formatting import time_us
from tcexplore.document import validate
from tcexplore.measure.run_profile import PROFILED_STEPS
from tcexplore.render.html import render_html

from ..inductor_cache import fresh_inductor_cache

LOOP = Path(__file__).parents[1] / "fixtures" / "run_view" / "train_loop.py"
BREAK_LINE = next(
    i for i, line in enumerate(LOOP.read_text().splitlines(), 1) if "the graph break" in line
)
STEPS = 24


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """The loop under `tcexplore run --profile`, in a process of its own: the document, the
    report, the loop's own step times and stderr."""
    workdir = tmp_path_factory.mktemp("run_view")
    out, page, walls = workdir / "out.json", workdir / "out.html", workdir / "walls.json"
    # One intra-op thread: on a 2-core machine other processes share, two OpenMP threads
    # make each compiled kernel wait for a descheduled one (steps of 1 ms took 70 ms), and
    # the AdamW step this module names falls under the finding's share of such a step.
    env = dict(
        os.environ,
        TORCHINDUCTOR_CACHE_DIR=str(fresh_inductor_cache(workdir / "inductor-cache")),
        OMP_NUM_THREADS="1",
    )
    done = subprocess.run(
        [sys.executable, "-m", "tcexplore", "run", str(LOOP), str(walls), "cpu", str(STEPS),
         "--profile", "--json", str(out), "--html", str(page)],
        env=env, capture_output=True, text=True, timeout=600, cwd=workdir, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return (json.loads(out.read_text()), page.read_text(), json.loads(walls.read_text()),
            done.stderr)


def _steady(run_view):
    steps = run_view["steps"]
    # the steps the profiler recorded whole, less those that compiled
    return [
        i
        for first, last in steps["profiled"]
        for i in range(first, last + 1)
        if i not in steps["compiled"]
    ]


def test_every_step_is_told_and_each_compile_is_entered_once_per_step(run):
    document, *_ = run
    validate(document)
    view = document["profile"]["run"]
    steps = view["steps"]
    plain = view["unprofiled"]
    # nothing compiles after the first steps: one window, from the start until it recorded
    # PROFILED_STEPS steady steps whole, stopped in the step after them
    ((first, stopped),) = plain["windows"]
    assert first == 0 and stopped is not None and steps["profiled"] == [[0, stopped - 1]]
    assert steps["count"] == STEPS  # every step of the run, profiled or not
    assert 0 in steps["compiled"]  # the resume function and the backward compile in step 0
    assert steps["steady"] == len(_steady(view)) == PROFILED_STEPS
    # every later step but the last, timed without the profiler
    assert plain["steps"] == STEPS - stopped - 2 and plain["basis"] == "markers"
    rows = {(f["compile_id"], f["backward"]): f for f in view["frames"]}
    ids = {c["id"]: c for c in document["compiles"]}
    assert set(rows) == {(cid, backward) for cid in ids for backward in (False, True)}
    for row in rows.values():
        assert row["entered"] == steps["steady"] and row["per_step"] == 1
        assert document["compiles"][row["compile"]]["id"] == row["compile_id"]
        assert row["total_us"] == pytest.approx(row["kernel_us"] + row["outside_us"])
        assert row["hot"] is None  # one cache entry per frame
    resume = next(c for c in document["compiles"] if c.get("resume_of"))
    assert rows[(resume["id"], False)]["frame"] == resume["frame"]["function"]


def test_compiled_and_eager_time_add_up_to_the_loops_own(run):
    document, _, walls, _ = run
    view = document["profile"]["run"]
    steady = view["steps"]["steady"]
    frames = sum(f["total_us"] for f in view["frames"])
    gaps = sum(g["total_us"] for g in view["gaps"])
    assert frames + gaps == pytest.approx(view["per_step_us"] * steady)
    assert view["compiled_us"] + view["eager_us"] == pytest.approx(view["per_step_us"])
    assert view["compiled_share"] == pytest.approx(view["compiled_us"] / view["per_step_us"])
    # the loop's own time of the same steps, timed by the script under the same profiler
    own = sum(walls["step_us"][i] for i in _steady(view))
    assert frames + gaps == pytest.approx(own, rel=0.10)


def test_the_step_every_view_shows_is_the_loops_own_without_the_profiler(run):
    """The unprofiled steps are the loop's own later steps: the same mean (the timers sit at
    each step's first graph call, the loop's clock around its body); the profiled steps'
    mean, the slowdown between them, and the words every view draws."""
    document, page, walls, stderr = run
    view = document["profile"]["run"]
    plain = view["unprofiled"]
    after = walls["step_us"][plain["windows"][0][1] + 1 : -1]
    assert len(after) == plain["steps"]
    assert plain["per_step_us"] == pytest.approx(sum(after) / len(after), rel=0.10)
    assert plain["slowdown"] == pytest.approx(view["per_step_us"] / plain["per_step_us"])
    assert 0 < plain["marker_us"] < 0.01 * plain["per_step_us"]  # the timers' own cost
    step = view["step_time"]
    assert step["per_step_us"] == plain["per_step_us"]
    shown = time_us(plain["per_step_us"])
    assert step["line"].startswith(f"{shown} per step without the profiler")
    assert (step["slowdown_note"] is not None) == (plain["slowdown"] > 1.1)
    assert html.escape(step["line"], quote=False) in page
    if step["slowdown_note"]:
        assert f"{plain['slowdown']:.2f}×" in step["slowdown_note"]
        assert html.escape(step["slowdown_note"]) in page
        # the shares are the profiled step's: the headline says so, and gives both steps
        said = (f"of each profiled step ({time_us(view['per_step_us'])}) runs compiled code "
                f"({shown} a step without the profiler)")
    else:
        said = f"of each step ({shown}) runs compiled code"
    assert said in view["headline"]
    assert said in stderr


def test_the_eager_adamw_step_is_named_with_its_time_and_the_advice(run):
    document, page, *_ = run
    view = document["profile"]["run"]
    outside = next(g for g in view["gaps"] if g["kind"] == "between_steps")
    names = {n["name"]: n for n in outside["names"]}
    adamw = names["Optimizer.step#AdamW.step"]
    assert adamw["kind"] == "optimizer_step" and adamw["label"].startswith("AdamW.step")
    assert 0 < adamw["per_step_us"] < outside["per_step_us"]
    # the optimizer's own time per step without the profiler, from torch's step hooks
    assert 0 < adamw["unprofiled_us"] < view["unprofiled"]["per_step_us"]
    assert sum(n["total_us"] for n in outside["names"]) <= outside["total_us"] * 1.0001
    (found,) = [f for f in document["findings"] if f["kind"] == "eager_optimizer"] or [
        [f["kind"] for f in document["findings"]]
    ]
    assert "AdamW.step" in found["title"] and "torch.compile" in found["advice"]
    assert found["fix"]["not_tried"]
    assert html.escape(adamw["label"]) in page


def test_the_eager_gap_is_put_down_to_the_breaks_line(run):
    document, *_ = run
    view = document["profile"]["run"]
    (gap,) = [g for g in view["gaps"] if g["kind"] == "graph_break"]
    brk = document["graph_breaks"][gap["break"]]
    assert (brk["line"], gap["line"]) == (BREAK_LINE, BREAK_LINE)
    assert gap["file"].endswith("train_loop.py") and gap["count"] == view["steps"]["steady"]
    assert f"train_loop.py:{BREAK_LINE}" in gap["label"]
    assert f"graph break at train_loop.py:{BREAK_LINE} costs" in view["headline"]
    (finding,) = [f for f in document["findings"] if f["kind"] == "run_view"]
    assert f"train_loop.py:{BREAK_LINE}" in finding["title"]
    # the rest of a step is outside any compiled frame (the loss, autograd, the optimizer)
    assert {g["kind"] for g in view["gaps"]} == {"graph_break", "between_steps"}


def test_the_timeline_tiles_one_steady_step(run):
    document, *_ = run
    view = document["profile"]["run"]
    timeline = view["timeline"]
    assert timeline["step"] in _steady(view)
    spans = timeline["spans"]
    assert spans[0]["start_us"] == 0 and timeline["spans_left_out"] == 0
    assert spans[-1]["end_us"] == pytest.approx(timeline["duration_us"])
    for before, after in zip(spans, spans[1:]):
        assert after["start_us"] == pytest.approx(before["end_us"])
    compiled = [s for s in spans if s["kind"] == "compiled"]
    assert len(compiled) == len(view["frames"])  # each compile once: forward, then backward
    assert [view["frames"][s["frame"]]["backward"] for s in compiled] == [False] * 2 + [True] * 2
    for span in spans:
        assert (span["frame"] is None) == (span["kind"] == "eager") == (span["gap"] is not None)
    # the axis ends where the step does, its end labelled with the step's time in its unit
    axis = timeline["axis"]
    ticks = axis["ticks"]
    assert ticks[0]["at_us"] == 0 and ticks[-1]["at_us"] == timeline["duration_us"]
    assert [t["at_us"] for t in ticks] == sorted({t["at_us"] for t in ticks})
    unit = axis["title"].rpartition("(")[2].rstrip(")")
    assert ticks[-1]["label"].endswith(f" {unit}") and unit in {"µs", "ms", "s"}


def test_the_report_and_the_summary_show_the_run(run):
    document, page, _, stderr = run
    view = document["profile"]["run"]
    assert 'id="tcx-steps"' in page and 'class="tcx-run-timeline"' in page
    assert html.escape(view["headline"], quote=False) in page
    assert f'href="#tcx-compile-{view["frames"][0]["compile_id"]}"' in page
    assert 'href="#tcx-graph-break-0"' in page  # the gap links to its break's site
    assert f"tcexplore: profile: steps: {view['headline']}" in stderr
    # the frames table names Dynamo's resume function as the timeline and the extension do
    resumed = [f["frame"] for f in view["frames"] if f["frame"] in document["resume_labels"]]
    assert resumed
    frames = page.split("Compiled frames by time", 1)[1].split("Eager gaps by cause", 1)[0]
    for name in resumed:
        assert html.escape(document["resume_labels"][name]) in frames
        assert html.escape(name) not in frames


def broken(x):
    y = x.sin() * 2
    print("", end="")  # a graph break between the two graphs
    return y.cos() + 1


@pytest.fixture(scope="module")
def explored():
    return [
        tcexplore.explore(broken, torch.randn(64), profile=True, time_budget_s=0.1)
        for _ in range(2)  # a session explores again: the second compiles anew
    ]


def test_explore_tells_a_step_per_call_and_the_figures_add_up(explored):
    data = explored[0].document.data
    validate(data)
    view = data["profile"]["run"]
    steps = view["steps"]
    assert steps["compiled"] == [] and steps["steady"] == steps["count"]
    assert steps["count"] == data["profile"]["calls"]["steady"]
    ids = {c["id"] for c in data["compiles"]}
    assert len(ids) == 2  # the function's graph and its resume function's
    assert {(f["compile_id"], f["backward"]) for f in view["frames"]} == {
        (cid, False) for cid in ids
    }
    assert all(f["entered"] == steps["count"] for f in view["frames"])
    frames = sum(f["total_us"] for f in view["frames"])
    gaps = sum(g["total_us"] for g in view["gaps"])
    assert frames + gaps == pytest.approx(view["per_step_us"] * steps["count"])
    kinds = {g["kind"]: g for g in view["gaps"]}
    assert kinds["graph_break"]["count"] == steps["count"]  # once per call, its tail included
    assert "before_first" in kinds  # Dynamo's entry and the guards, before the first region
    assert "between_steps" not in kinds  # a call ends with its last compiled code


def test_exploring_again_links_each_row_to_its_own_documents_compiles_and_break(explored):
    for exploration in explored:
        data = exploration.document.data
        view = data["profile"]["run"]
        for row in view["frames"]:
            assert data["compiles"][row["compile"]]["id"] == row["compile_id"]
        (gap,) = [g for g in view["gaps"] if g["kind"] == "graph_break"]
        assert data["graph_breaks"][gap["break"]]["compile_id"] in {
            row["compile_id"] for row in view["frames"]
        }


def test_the_run_view_escapes_what_it_draws(run):
    document, *_ = run
    hostile = "<script>alert(1)</script>"
    data = copy.deepcopy(document)
    view = data["profile"]["run"]
    view["headline"] = view["steps"]["basis"] = hostile
    view["frames"][0]["frame"] = view["frames"][0]["compile_id"] = hostile
    view["gaps"][0]["label"] = hostile
    for span in view["timeline"]["spans"]:
        span["label"] = hostile
    page = render_html(data)
    assert hostile not in page and html.escape(hostile) in page
