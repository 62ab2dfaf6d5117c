"""ComparePanel and the live progress stages, in this process (no kernel)."""

from __future__ import annotations

import pytest
import torch

import tcexplore
from tcexplore.notebook.progress import stage_of

pytest.importorskip("ipywidgets", reason="ipywidgets is in the `notebook` extra")
pytest.importorskip("plotly", reason="plotly is in the `notebook` extra")


def cosine(t):
    return t.cos() * 2


def test_panel_runs_each_configuration_and_opens_any_row():
    panel = tcexplore.ComparePanel(cosine, torch.randn(4, 4), backends=("eager", "aot_eager"),
                                   time_budget_s=0.02)
    assert panel.configurations() == [(None, "eager", None), (None, "aot_eager", None)]
    comparison = panel.run()
    assert [(r["backend"], r["status"]) for r in comparison.rows] == [("eager", "ok"),
                                                                      ("aot_eager", "ok")]
    grid = panel.grid.bundle["application/vnd.tcexplore.v1+json"]
    assert grid["kind"] == "comparison" and len(grid["rows"]) == 2
    assert 'class="tcx-comparison-table"' in panel.grid.bundle["text/html"]
    assert [label for label, _ in panel.row_picker.options] == [
        "eager / default / dynamic=None", "aot_eager / default / dynamic=None"]
    figure = comparison.figure()
    assert [trace.name for trace in figure.data] == ["compile_s", "median_ms", "speedup",
                                                     "max_abs_err"]
    opened = panel.open(1)
    assert opened is comparison.rows[1]["exploration"]
    assert opened.document.data["explore"]["compile_kwargs"]["backend"] == "aot_eager"


def test_panel_selection_changes_the_grid():
    panel = tcexplore.ComparePanel(cosine, torch.randn(2))
    panel.modes.value = ("default", "max-autotune-no-cudagraphs")
    panel.dynamic.value = ("none", "true")
    panel.backends.value = ("inductor",)
    assert len(panel.configurations()) == 4
    assert (None, "inductor", True) in panel.configurations()


def test_progress_stages_follow_the_compile():
    torch.compiler.reset()
    stages = []
    # cold: a cache hit skips AOTAutograd and Inductor's codegen (test_cache_hits_stage)
    with tcexplore.capture(on_event=lambda e: stages.append(stage_of(e)), bypass_caches=True):
        torch.compile(lambda t: (t.sin() + 1).sum())(torch.randn(8))
    stages = [s for s in stages if s]
    for expected in ("Dynamo tracing frame 0/0", "AOTAutograd frame 0/0",
                     "Inductor codegen frame 0/0", "compiling kernels frame 0/0",
                     "compiled frame 0/0"):
        assert expected in stages, (expected, stages)
    order = [stages.index(s) for s in ("Dynamo tracing frame 0/0", "AOTAutograd frame 0/0",
                                       "Inductor codegen frame 0/0")]
    assert order == sorted(order)


def test_a_cache_hit_is_a_stage_of_its_own(tmp_path, monkeypatch):
    """Caches as the program has them: a compile served from them shows that stage, not a
    codegen that did not happen."""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))

    def fn(t):
        return (t.cos() * 3).sum()

    torch.compiler.reset()
    torch.compile(fn)(torch.randn(8))  # the program alone writes the entries
    torch.compiler.reset()
    stages = []
    with tcexplore.capture(on_event=lambda e: stages.append(stage_of(e))):
        torch.compile(fn)(torch.randn(8))
    stages = [s for s in stages if s]
    assert any(s.startswith("Inductor served from its cache") for s in stages), stages
    assert not any(s.startswith("Inductor codegen") for s in stages), stages
