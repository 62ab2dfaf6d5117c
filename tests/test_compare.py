"""compare(): one isolated run per configuration; failures are rows, not exceptions."""

from __future__ import annotations

import pytest
import torch

import tcexplore

MODES = [None, "reduce-overhead", "max-autotune-no-cudagraphs"]
BACKENDS = ["inductor", "aot_eager", "eager"]


def gelu_mm(x, w):
    return torch.nn.functional.gelu(x @ w).sum(-1)


@pytest.fixture(scope="module")
def grid():
    torch.manual_seed(0)
    return tcexplore.compare(gelu_mm, torch.randn(8, 16), torch.randn(16, 16), modes=MODES,
                             backends=BACKENDS, dynamic=[None, True], time_budget_s=0.02)


def test_grid_has_one_row_per_configuration_each_explained(grid):
    assert len(grid.rows) == len(MODES) * len(BACKENDS) * 2
    assert {(r["mode"], r["backend"], r["dynamic"]) for r in grid.rows} == {
        (m, b, d) for m in MODES for b in BACKENDS for d in (None, True)}
    for row in grid.rows:
        assert row["status"] in {"ok", "mismatch", "error"}
        if row["status"] != "ok":
            assert row["error"] or row["max_abs_err"] is not None, row
        else:
            assert row["compile_s"] > 0 and row["median_ms"] > 0 and row["graphs"] == 1


def test_rows_reflect_what_each_backend_generated(grid):
    for row in grid.rows:
        if row["status"] == "ok":
            assert (row["kernels"] > 0) == (row["backend"] == "inductor"), row


def test_markdown_lists_every_row(grid):
    table = grid.to_markdown()
    assert table.count("\n") == len(grid.rows) + 1
    assert "max-autotune-no-cudagraphs" in table


def test_a_failing_configuration_is_a_row_with_its_error():
    def broken(gm, example_inputs):
        raise RuntimeError("no kernels for you")

    comparison = tcexplore.compare(gelu_mm, torch.randn(4, 16), torch.randn(16, 16),
                                   backends=[broken, "eager"], time_budget_s=0.02)
    failed, ok = comparison.rows
    assert failed["status"] == "error" and "no kernels for you" in failed["error"]
    assert ok["status"] == "ok"


def test_process_isolation_runs_cold_in_a_subprocess():
    comparison = tcexplore.compare(gelu_mm, torch.randn(4, 16), torch.randn(16, 16),
                                   backends=["inductor"], isolate="process", time_budget_s=0.02)
    (row,) = comparison.rows
    assert row["status"] == "ok", row["error"]
    assert row["kernels"] >= 1
    cache = [c for record in row["exploration"].document.compiles for c in record["cache"]]
    assert all(c["result"] != "hit" for c in cache)


def test_bad_isolation_mode_is_rejected():
    with pytest.raises(ValueError, match="isolate"):
        tcexplore.compare(gelu_mm, torch.randn(4, 16), torch.randn(16, 16), isolate="threads")
