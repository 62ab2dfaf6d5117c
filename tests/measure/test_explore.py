"""explore(): eager vs compiled — accuracy verdict, first divergence, timing, display."""

from __future__ import annotations

import operator
from pathlib import Path

import pytest
import torch

import tcexplore
from tcexplore.document import validate
from tcexplore.measure.exploration import MIME_TYPE


def layer(x, y):
    a = x.sin()
    b = a * y
    return (b + 1).relu().sum(dim=0)


def mutating_layer(x, y):
    x.mul_(2)
    y.add_(x.sin())
    return (x * y).sum()


def nudging_backend(gm, example_inputs):
    """A planted bug: the output of every `sin` is off by 1e-2."""
    for node in list(gm.graph.nodes):
        if node.op == "call_method" and node.target == "sin":
            with gm.graph.inserting_after(node):
                nudged = gm.graph.call_function(operator.add, (node, 1e-2))
            node.replace_all_uses_with(nudged, delete_user_cb=lambda user, n=nudged: user is not n)
    gm.recompile()
    return gm.forward


@pytest.fixture(scope="module")
def inputs():
    torch.manual_seed(0)
    return torch.randn(16, 8), torch.randn(16, 8)


@pytest.fixture(scope="module")
def correct(inputs):
    torch.compiler.reset()
    return tcexplore.explore(layer, *inputs, time_budget_s=0.1, reference="fp64")


def test_planted_bug_is_found_at_its_node_and_line(inputs):
    exploration = tcexplore.explore(layer, *inputs, backend=nudging_backend, time_budget_s=0.05)
    accuracy = exploration.accuracy
    assert accuracy["ok"] is False
    found = accuracy["first_divergence"]
    assert found["node"] == "a" and found["target"] == "sin"
    assert Path(found["source"]["file"]).name == "test_explore.py"
    assert found["source"]["code"] == "a = x.sin()"
    assert found["max_abs_err"] == pytest.approx(1e-2, rel=1e-3)


def test_default_backend_agrees_and_has_no_divergence(correct):
    accuracy = correct.accuracy
    assert accuracy["ok"] is True and accuracy["first_divergence"] is None
    (leaf,) = accuracy["outputs"]
    assert leaf["mismatched"] == 0 and leaf["max_abs_err"] <= leaf["atol"] + leaf["rtol"] * 10
    assert accuracy["reference"]["available"] is True
    assert accuracy["reference"]["outputs"][0]["compiled_vs_eager"] in {"closer", "farther", "same"}


def test_divergence_names_the_kernel_the_node_was_fused_into(inputs):
    # The planted bug, then Inductor (compile_fx: the entry point custom backends wrap).
    from torch._inductor.compile_fx import compile_fx

    def nudged_inductor(gm, example_inputs):
        nudging_backend(gm, example_inputs)
        return compile_fx(gm, example_inputs)

    torch.compiler.reset()
    # cold: the kernels come from Inductor's codegen, which a cache hit skips
    exploration = tcexplore.explore(
        layer, *inputs, backend=nudged_inductor, time_budget_s=0.05, bypass_caches=True
    )
    found = exploration.accuracy["first_divergence"]
    assert found["node"] == "a"
    assert found["kernels"] and found["kernels"][0].startswith("cpp_fused")


def test_in_place_mutation_gets_the_verdict_of_a_pure_function(inputs):
    torch.compiler.reset()
    mutating = tcexplore.explore(mutating_layer, *inputs, time_budget_s=0.05)
    assert mutating.accuracy["ok"] is True
    assert all(r["ok"] for r in mutating.accuracy["inputs_after_call"])
    assert len(mutating.accuracy["inputs_after_call"]) == 2  # both mutated inputs compared


def test_timing_reports_medians_spread_and_break_even(correct):
    timing = correct.timing
    for side in ("eager", "compiled"):
        stats = timing[side]
        assert stats["samples"] >= 7 and stats["median_ms"] > 0 and stats["iqr_ms"] >= 0
        assert stats["min_ms"] <= stats["median_ms"] <= stats["max_ms"]
    assert timing["compile_s"] > 0
    assert timing["speedup"] == pytest.approx(
        timing["eager"]["median_ms"] / timing["compiled"]["median_ms"])
    saved_ms = timing["eager"]["median_ms"] - timing["compiled"]["median_ms"]
    if saved_ms > 0:
        assert timing["break_even_calls"] == pytest.approx(timing["compile_s"] * 1e3 / saved_ms)
    else:
        assert timing["break_even_calls"] is None


def test_timing_keeps_quartiles_budget_and_an_interval_around_the_speedup(correct):
    timing = correct.timing
    for side in ("eager", "compiled"):
        stats = timing[side]
        assert stats["q1_ms"] <= stats["median_ms"] <= stats["q3_ms"]
        assert stats["iqr_ms"] == pytest.approx(stats["q3_ms"] - stats["q1_ms"])
        assert stats["noisy"] == (stats["iqr_ms"] > 0.1 * stats["median_ms"])
    low, high = timing["speedup_interval"]
    assert 0 < low <= high
    assert timing["budget_s"] == 0.1


def test_exploration_displays_as_a_mime_bundle(correct):
    bundle = correct._repr_mimebundle_()
    assert set(bundle) == {MIME_TYPE, "text/html", "text/plain"}
    validate(bundle[MIME_TYPE])
    assert "tcx-report" in bundle["text/html"]
    assert correct.summary()["accurate"] is True


def test_a_compile_that_raises_is_kept_with_its_error(inputs):
    def broken(gm, example_inputs):
        raise RuntimeError("backend exploded")

    exploration = tcexplore.explore(layer, *inputs, backend=broken)
    assert "backend exploded" in exploration.error["message"]
    assert exploration.document.compiles[0]["status"] == "failed"
    assert exploration.timing is None
