"""Every "user code" column shows the user's nearest line (#43 item 6): a recompile's failed
guard is located as the cached compile's guard it is (torch's reason names no line), a
guard torch adds itself (``_dynamo/output_graph.py:1135 in init_ambient_guards``) or first
used inside a library is shown at the compiled frame, never at torch's own line."""

from __future__ import annotations

import html
import inspect
import os

import pytest
import torch

import tcexplore
from tcexplore.render.html import render_html

TORCH_DIR = os.path.dirname(torch.__file__)


def scaled(x):
    y = x.sin()
    return torch.nn.functional.relu(y) * 2


@pytest.fixture(scope="module")
def document():
    compiled = torch.compile(scaled, backend="eager", dynamic=False)
    with tcexplore.capture() as session:
        compiled(torch.randn(8))
        compiled(torch.randn(16))
    return session.document


def test_a_recompiles_failed_guard_has_the_line_its_guard_has(document):
    (record,) = [c for c in document.data["compiles"] if c["recompile_reasons"]]
    (reason,) = record["recompile_reasons"][0]
    assert reason["guard"].startswith("tensor 'x' size mismatch") and not reason["user_location"]
    line = reason["user_line"]
    first = inspect.getsourcelines(scaled)[1]
    assert (line["file"], line["line"], line["frame"]) == (__file__, first + 1, False)
    assert line["code"] == "y = x.sin()"
    page = render_html(document)
    table = page.split('class="tcx-recompile-table"', 1)[1].split("</table>", 1)[0]
    assert html.escape(line["where"]) in table


def test_no_guard_is_shown_at_torchs_own_line(document):
    first = inspect.getsourcelines(scaled)[1]
    for record in document.data["compiles"]:
        ambient = [g for g in record["guards"]
                   if (g.get("user_location") or {}).get("function") == "init_ambient_guards"]
        assert ambient, "torch no longer adds its ambient guards with its own line"
        for g in record["guards"]:
            line = g["user_line"]
            assert line is not None, g
            assert not line["file"].startswith(TORCH_DIR), g
            if g in ambient:
                assert (line["frame"], line["line"], line["function"]) == (True, first, "scaled")
                assert "output_graph.py" in line["library_line"]
