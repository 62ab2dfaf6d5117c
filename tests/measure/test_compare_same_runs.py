"""compare() folds the rows torch runs identically into one, quoting torch: a backend other
than Inductor ignores ``mode`` and says so when it compiles."""

from __future__ import annotations

import logging

import pytest
import torch

import tcexplore
from tcexplore import _torch_compat
from tcexplore._torch_compat import logs
from tcexplore.document import validate
from tcexplore.render.comparison import render_comparison_html


def step(x):
    return torch.relu(x) * 2


@pytest.fixture(scope="module")
def grid():
    return tcexplore.compare(step, torch.randn(8), backends=("aot_eager",),
                             modes=(None, "max-autotune"), time_budget_s=0.05)


def test_torch_says_when_a_backend_ignores_mode():
    torch.compiler.reset()
    with _torch_compat.ignored_backend_options() as said:
        torch.compile(step, backend="aot_eager", mode="max-autotune")(torch.randn(4))
    torch.compiler.reset()
    assert said and "{'mode': 'max-autotune'}" in said[0], (
        f"torch no longer logs that aot_eager ignores mode under {logs._BACKENDS_LOGGER}")
    assert not logging.getLogger(logs._BACKENDS_LOGGER).handlers


def test_rows_torch_runs_alike_are_one_row_saying_why(grid):
    (row,) = grid.rows
    assert (row["backend"], row["mode"]) == ("aot_eager", None)
    (same,) = row["same_runs"]
    assert same["label"] == "aot_eager / max-autotune / dynamic=None"
    assert "ignoring extra kwargs {'mode': 'max-autotune'}" in same["reason"]
    data = grid.to_dict()
    validate(data)
    assert data["rows"][0]["same_runs"] == [same]
    page = render_comparison_html(data)
    assert "= aot_eager / max-autotune / dynamic=None: the same run (torch: " in page
    assert "1 configuration (1 more that torch runs identically, folded in)" in page
