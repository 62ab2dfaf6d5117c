"""A diff of two notebook runs (compare() rows, %%tcompile outputs) names a cell's lines
as the notebook does, "cell [3], line 2", not by IPython's file name "3824899368.py:2"."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import tcexplore
from tcexplore.docdiff import validate
from tcexplore.docdiff.html import render_html
from tcexplore.docdiff.text import render_text

FIXTURE = Path(__file__).parents[1] / "fixtures" / "graph_break_audit" / "document.json"


def _diff():
    a = json.loads(FIXTURE.read_text())
    b = copy.deepcopy(a)
    b["compiles"][0]["guards"].append({  # the cell's compile guards one more thing: "changed"
        "type": "TENSOR_MATCH", "source": "L['x']", "expression": "check_tensor(L['x'])",
        "user_code": "y = head(x) + tail(x)",
        "user_location": {"file": "/tmp/ipykernel_978/3824899368.py", "line": 3}})
    return tcexplore.diff(a, b, labels=("inductor", "aot_eager")).data


def test_diff_keeps_both_sides_cell_labels():
    data = _diff()
    validate(data)
    assert data["a"]["source_labels"]["/tmp/ipykernel_978/3824899368.py"] == "cell [3]"


def test_diff_text_and_html_name_cells_not_ipython_files():
    data = _diff()
    text, page = render_text(data), render_html(data)
    assert "changed: 0/0 <cell> (cell [3], line 2)" in text and "cell [2], line 4" in page
    assert "3824899368.py" not in text and "1420159023.py" not in page
