"""A GPU step measured twice on a host whose speed changed between the two: said, with both
figures, on the step and in its finding (findings/profile.py). The steps are explore()'s on
an H200 (tests/fixtures/profile_steps: benchmarks/loop_verdict.py's workloads); the GPU
test of the same (tests/measure/test_gpu_loop_verdict.py) holds the stated range against
an independent loop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcexplore.findings import profile

STEPS = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "profile_steps" / "h200_loop_steps.json").read_text()
)["steps"]


def _document(name: str) -> dict:
    step = STEPS[name]["step"]
    return {
        "profile": {"step": {**step, "unreliable": profile.unreliable({}, step)}, "device": "cuda"},
        "timing": {"compiled": {"median_ms": STEPS[name]["timing_compiled_median_ms"]}},
    }


def test_two_measurements_a_third_apart_are_said_with_both_figures():
    data = _document("mlp_unsteady")
    step = data["profile"]["step"]
    low, high = profile.unsteady_range(step)
    assert (low, high) == (step["timing_wall_us"], step["basis"]["loop_us"])
    assert high > low * (1 + profile.UNSTEADY_SHARE)
    said = step["unreliable"]
    assert said.startswith("Unsteady: ") and "the host's speed changed by 38.3%" in said
    assert "160 µs to 221 µs" in said and "the verdict rests on the first" in said
    # the independent loop timed after the explore (152 µs) is within 15% of the range
    loop = STEPS["mlp_unsteady"]["independent_loop_us"]
    assert low * (1 - profile.UNSTEADY_SHARE) <= loop <= high * (1 + profile.UNSTEADY_SHARE)
    (found,) = profile.find(data)
    assert found["severity"] == "warning"
    assert (
        found["title"]
        == "Where the time goes (unreliable: the host's speed changed): overhead-bound"
    )
    assert found["details"][0] == said
    assert found["advice"] == step["advice"][0]  # not a busy machine's advice


@pytest.mark.parametrize("name", ["mlp_steady", "softmax"])
def test_measurements_that_agree_leave_the_step_reliable(name):
    data = _document(name)
    step = data["profile"]["step"]
    assert profile.unsteady_range(step) is None and step["unreliable"] is None
    (found,) = profile.find(data)
    assert found["severity"] == "info" and "unreliable" not in found["title"]


def test_a_cpu_step_has_no_loop_figure_to_hold_against_its_timing():
    step = {
        **STEPS["mlp_unsteady"]["step"],
        "basis": {**STEPS["mlp_unsteady"]["step"]["basis"], "rule": "share"},
    }
    assert profile.unsteady_range(step) is None
