"""The run view (#35) of a notebook cell and of a capture: ``%%tcompile --profile`` profiles
runs of the compiled cell (each run of its body a step) and leaves the user's objects as
one run left them; ``tcexplore.capture(profile=True)`` profiles the block as ``tcexplore
run --profile`` profiles a script. One session in an InteractiveShell: a cell that breaks
once, compiled with --profile and then without; then a loop under a profiled capture, and
profiled again once it is compiled."""

from __future__ import annotations

import pytest
import torch

import tcexplore
from tcexplore.common.formatting import share
from tcexplore.document import validate
from tcexplore.findings.run_view import BEFORE_CAPTURE, STEP_BY, UNRECORDED
from tcexplore.measure.run_profile import PROFILED_STEPS

pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")

SETUP = """\
import copy
import torch
%load_ext tcexplore
x = torch.randn(64)
calls = torch.zeros(1)
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.BatchNorm1d(16), torch.nn.ReLU())
batch = torch.randn(32, 8)
expected = copy.deepcopy(model)
expected(batch).pow(2).mean().backward()"""
TRAIN = """\
%%tcompile --profile --time-budget 0.1 --out trained
loss = model(batch).pow(2).mean()
loss.backward()"""

# The magic's line is the cell file's line 1, so the body's lines start at 2.
CELL = """\
y = x.sin() * 2
print("", end="")  # the graph break
calls.add_(1)
z = y.cos() + 1"""
CELL_BREAK_LINE = 3
LOOP_STEPS = 8


def stepped(x):
    y = x.sin() * 2
    print("", end="")  # the graph break
    return y.cos() + 1


STEPPED_BREAK_LINE = stepped.__code__.co_firstlineno + 2


@pytest.fixture(scope="module")
def session():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    assert shell.run_cell(SETUP).success
    profiled = shell.run_cell(f"%%tcompile --profile --time-budget 0.1 --out profiled\n{CELL}")
    calls_after_profiled = shell.user_ns["calls"].item()
    plain = shell.run_cell(f"%%tcompile --time-budget 0.1 --out plain\n{CELL}")
    assert profiled.success and plain.success, (profiled.error_in_exec, plain.error_in_exec)
    trained = shell.run_cell(TRAIN)
    assert trained.success, trained.error_in_exec
    compiled = torch.compile(stepped)
    with tcexplore.capture(profile=True) as captured:
        for _ in range(LOOP_STEPS):
            compiled(torch.randn(64))
    with tcexplore.capture(profile=True) as warm:  # the loop profiled again, compiled
        for _ in range(LOOP_STEPS):
            compiled(torch.randn(64))
    return {
        "profiled": shell.user_ns["profiled"].document.data,
        "plain": shell.user_ns["plain"].document.data,
        "calls": (calls_after_profiled, shell.user_ns["calls"].item()),
        "z": shell.user_ns["z"],
        "x": shell.user_ns["x"],
        "captured": captured.document.data,
        "trained": shell.user_ns["trained"].document.data,
        "model": (shell.user_ns["model"], shell.user_ns["expected"]),
        "warm": warm.document.data,
    }


def _sums(view):
    return sum(f["total_us"] for f in view["frames"]), sum(g["total_us"] for g in view["gaps"])


def test_a_profiled_cell_tells_a_step_per_run_of_its_body(session):
    data = session["profiled"]
    validate(data)
    view = data["profile"]["run"]
    steps = view["steps"]
    assert steps["basis"] == STEP_BY["cell"]
    assert data["profile"]["scope"] == "call"
    assert steps["compiled"] == [] and steps["steady"] == steps["count"]
    assert steps["count"] == data["profile"]["calls"]["steady"]
    ids = {c["id"] for c in data["compiles"]}
    assert len(ids) == 2  # the cell's graph and its resume function's
    assert {f["compile_id"] for f in view["frames"]} == ids
    assert all(f["entered"] == steps["count"] and f["per_step"] == 1 for f in view["frames"])
    frames, gaps = _sums(view)
    assert frames + gaps == pytest.approx(view["per_step_us"] * steps["count"])


def test_a_profiled_cells_gap_is_on_the_breaks_line_of_the_cell(session):
    data = session["profiled"]
    view = data["profile"]["run"]
    (gap,) = [g for g in view["gaps"] if g["kind"] == "graph_break"]
    brk = data["graph_breaks"][gap["break"]]
    assert brk["line"] == gap["line"] == CELL_BREAK_LINE
    assert gap["count"] == view["steps"]["count"]
    # named as the rest of the document names the cell's lines
    where = f"{data['explore']['source_labels'][brk['file']]}, line {CELL_BREAK_LINE}"
    assert where.startswith("cell [") and gap["label"].startswith(f"graph break at {where}")
    assert f"the graph break at {where} costs" in view["headline"]
    (finding,) = [f for f in data["findings"] if f["kind"] == "run_view"]
    assert where in finding["title"]


def test_profiling_a_cell_leaves_no_trace(session):
    """The cell's effects are one run's; what the profiling ran is no compile of the user's,
    and the same cell without --profile compiles as much."""
    profiled, plain = session["profiled"], session["plain"]
    assert session["calls"] == (1.0, 2.0)  # each %%tcompile cell: one run's add_
    torch.testing.assert_close(session["z"], session["x"].sin().mul(2).cos().add(1))
    assert profiled["summary"]["recompiles"] == plain["summary"]["recompiles"] == 0
    assert len(profiled["compiles"]) == len(plain["compiles"])
    assert profiled["summary"]["graph_breaks"] == plain["summary"]["graph_breaks"]
    assert "profile" not in plain and profiled["explore"]["error"] is None


def test_a_profiled_training_cell_leaves_one_steps_effects_and_times_its_backward(session):
    model, expected = session["model"]
    assert int(model[1].num_batches_tracked) == 1  # the real run's step, no profiled one
    torch.testing.assert_close(model[1].running_mean, expected[1].running_mean)
    for p, q in zip(model.parameters(), expected.parameters()):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-5, atol=1e-6)
    data = session["trained"]
    view = data["profile"]["run"]
    steps = view["steps"]["count"]
    assert view["steps"]["basis"] == STEP_BY["cell"]
    # loss.backward() breaks the cell's frame: the compiled backward runs inside the
    # frame's compiled region, in the break's eager code, and is a row of its own
    rows = {(f["compile_id"], f["backward"]): f for f in view["frames"]}
    forward = data["compiles"][0]["id"]
    assert set(rows) == {(forward, False), (forward, True)}
    assert all(f["entered"] == steps for f in view["frames"])
    frames, gaps = _sums(view)
    assert frames + gaps == pytest.approx(view["per_step_us"] * steps)
    (gap,) = [g for g in view["gaps"] if g["kind"] == "graph_break"]
    assert gap["line"] == data["graph_breaks"][gap["break"]]["line"] == 3  # loss.backward()
    spans = view["timeline"]["spans"]
    backward = next(
        i
        for i, s in enumerate(spans)
        if s["frame"] is not None and view["frames"][s["frame"]]["backward"]
    )
    assert spans[backward - 1]["gap"] is not None  # the break's code runs up to the backward


def test_a_profiled_capture_tells_steps_as_a_run_does(session):
    data = session["captured"]
    validate(data)
    view = data["profile"]["run"]
    steps = view["steps"]
    assert data["profile"]["scope"] == "run"
    assert steps["basis"].startswith("each entry of the run's first compiled frame (stepped")
    assert steps["count"] == LOOP_STEPS  # every step, profiled or not
    assert 0 in steps["compiled"]  # the first call compiled both graphs
    # the figures are over the steps the profiler's window recorded whole, less step 0;
    # the window stops after PROFILED_STEPS steady ones, the later steps run without it
    ((first, last),) = steps["profiled"]
    steady = [i for i in range(first, last + 1) if i not in steps["compiled"]]
    assert first == 0 and steps["steady"] == len(steady) == PROFILED_STEPS < LOOP_STEPS - 1
    assert view["unprofiled"]["steps"] == LOOP_STEPS - 1 - (last + 2)  # after the window
    assert {f["compile_id"] for f in view["frames"]} == {c["id"] for c in data["compiles"]}
    assert all(f["entered"] == steps["steady"] for f in view["frames"])
    frames, gaps = _sums(view)
    assert frames + gaps == pytest.approx(view["per_step_us"] * steps["steady"])
    (gap,) = [g for g in view["gaps"] if g["kind"] == "graph_break"]
    assert data["graph_breaks"][gap["break"]]["line"] == gap["line"] == STEPPED_BREAK_LINE


def test_profiling_a_warm_loop_again_says_what_the_capture_did_not_see_compile(session):
    """The second capture records no compile: the profile still measures every frame that
    ran and the break's gap, and says that their compiles are not in this document."""
    data = session["warm"]
    validate(data)
    view = data["profile"]["run"]
    assert data["compiles"] == [] and view["steps"]["compiled"] == []
    assert view["steps"]["steady"] == LOOP_STEPS - 1  # all but the last, whose end is not told
    assert [f["compile"] for f in view["frames"]] == [None, None]
    assert all(f["entered"] == view["steps"]["steady"] for f in view["frames"])
    frames, gaps = _sums(view)
    assert frames + gaps == pytest.approx(view["per_step_us"] * view["steps"]["steady"])
    (gap,) = [g for g in view["gaps"] if g["kind"] == "graph_break"]
    assert gap["line"] is None and gap["label"] == f"eager code of {UNRECORDED}"
    assert view["headline"].endswith(
        f"{UNRECORDED} costs {share(gap['per_step_us'] / view['per_step_us'])} of it "
        f"(2 of the compiled frames that ran were {BEFORE_CAPTURE})"
    )
    assert BEFORE_CAPTURE in view["steps"]["basis"]
    (finding,) = [f for f in data["findings"] if f["kind"] == "run_view"]
    assert finding["title"].startswith(UNRECORDED.capitalize())
    assert "before the compiled code's first call" in finding["advice"]


def test_a_capture_without_profile_has_none_and_a_failing_profile_costs_only_itself():
    with tcexplore.capture() as plain:
        torch.compile(lambda t: t + 1)(torch.ones(2))
    assert "profile" not in plain.document.data

    def fails(data):
        raise RuntimeError("no profile")

    plain.add_section("profile", fails)
    data = plain.document.data
    assert "profile" not in data and data["summary"]["graphs"] == 1
    (entry,) = [e for e in data["capture"]["unread"]["items"] if e["kind"] == "profile"]
    assert "no profile" in entry["error"]


def test_profile_with_no_eager_is_refused_before_anything_runs(session):
    from IPython.core.error import UsageError
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()  # the session's
    ran = shell.run_cell(f"%%tcompile --profile --no-eager\n{CELL}")
    assert isinstance(ran.error_in_exec, UsageError)
    assert "--no-eager" in str(ran.error_in_exec)
    assert shell.user_ns["calls"].item() == session["calls"][1]  # the refused cell did not run
