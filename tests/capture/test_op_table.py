"""The shipped op table (views, side effects) is torch's own answer, so reading a log
without torch maps fusion groups exactly as a live capture does."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

import pytest
import torch

from tcexplore.capture import op_table


def test_the_op_table_agrees_with_the_installed_torch_on_every_op_it_has():
    shipped = op_table._table()
    installed = op_table.table_of_installed_torch()
    assert {op: flags for op, flags in installed.items() if op in shipped} == {
        op: shipped[op] for op in installed if op in shipped}


def test_the_op_table_holds_every_op_of_the_torch_it_was_made_from():
    made_from = json.loads(resources.files("tcexplore.capture").joinpath(op_table.TABLE)
                           .read_text())["torch"]
    if torch.__version__.split("+")[0] not in made_from:
        pytest.skip(f"the table was made from torch {made_from}; "
                    "`python -m tcexplore.capture.op_table` adds this one's ops")
    # In a fresh process, as the generator runs: tests register ops of their own.
    code = ("import json; from tcexplore.capture.op_table import table_of_installed_torch; "
            "print(json.dumps(sorted(table_of_installed_torch())))")
    installed = json.loads(subprocess.run([sys.executable, "-c", code], check=True,
                                          capture_output=True, text=True).stdout)
    assert set(installed) <= set(op_table._table())


def test_views_and_side_effects_read_from_the_table():
    assert op_table.is_view_op("torch.ops.aten.permute.default")
    assert not op_table.is_view_op("torch.ops.aten.mul.Tensor")
    assert op_table.has_side_effects("torch.ops.aten.copy_.default")
    assert not op_table.has_side_effects("torch.ops.aten.mul.Tensor")
    assert not op_table.has_side_effects("operator.getitem")
    assert op_table.has_side_effects("torch._higher_order_ops.auto_functionalize")
