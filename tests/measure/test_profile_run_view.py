"""The run view (#35): a training loop whose forward breaks once, under `tcexplore run
--profile`, told into steps; each compile's entries, the eager gap put down to the break's
line, and the figures against the loop's own wall time. Then explore(profile=True), where
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
from tcexplore.document import validate
from tcexplore.render.html import render_html

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
    env = dict(
        os.environ,
        TCEXPLORE_CACHE_DIR=str(workdir / "cache"),
        TORCHINDUCTOR_CACHE_DIR=str(workdir / "inductor-cache"),
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
    # a run's last step ends with its last compiled code: left out with the compiling ones
    return [i for i in range(steps["count"] - 1) if i not in steps["compiled"]]


def test_every_step_is_told_and_each_compile_is_entered_once_per_step(run):
    document, *_ = run
    validate(document)
    view = document["profile"]["run"]
    steps = view["steps"]
    assert steps["count"] == STEPS
    assert 0 in steps["compiled"]  # the resume function and the backward compile in step 0
    assert steps["steady"] == len(_steady(view)) >= STEPS - 4
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


def test_the_report_and_the_summary_show_the_run(run):
    document, page, _, stderr = run
    view = document["profile"]["run"]
    assert 'id="tcx-steps"' in page and 'class="tcx-run-timeline"' in page
    assert html.escape(view["headline"], quote=False) in page
    assert f'href="#tcx-compile-{view["frames"][0]["compile_id"]}"' in page
    assert 'href="#tcx-graph-break-0"' in page  # the gap links to its break's site
    assert f"tcexplore: profile: steps: {view['headline']}" in stderr


def broken(x):
    y = x.sin() * 2
    print("", end="")  # a graph break between the two graphs
    return y.cos() + 1


@pytest.fixture(scope="module")
def explored(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
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
