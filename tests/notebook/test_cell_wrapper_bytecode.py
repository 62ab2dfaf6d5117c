"""The ``%%tcompile`` cell's wrapper is not shown as the user's code (#43 item 5): its own
instructions (the names it starts unbound, the return of the cell's values) stand at no line
of the cell and are marked ``wrapper`` in the Bytecode section, original and modified, and
the report draws them apart. Played in a real IPython shell."""

from __future__ import annotations

import pytest
import torch

from tcexplore.notebook.cell import UNBOUND
from tcexplore.render.html import render_html

pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")

from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402

CELL = "%%tcompile --backend eager --no-eager --out run\ny = x.sin()\nprint('hi')\nz = y.cos()\nz.sum()"


@pytest.fixture(scope="module")
def exploration():
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "tcexplore")
    shell.user_ns.update(x=torch.randn(4))
    for name in ("y", "z"):  # names the cell starts unbound (an earlier test's shell may hold them)
        shell.user_ns.pop(name, None)
    with capture_output():
        result = shell.run_cell(CELL)
    assert result.error_in_exec is None, result.error_in_exec
    assert torch.allclose(shell.user_ns["z"], shell.user_ns["x"].sin().cos())
    return shell.user_ns["run"]


def test_the_wrappers_instructions_are_marked_not_the_cells_lines(exploration):
    sections = [c["bytecode"] for c in exploration.document.data["compiles"] if c["bytecode"]]
    assert len(sections) == 2  # the cell, and its resume after the print
    first = sections[0]["original"]["instructions"]
    unbound = [i for i in first if i.get("argrepr") == repr(UNBOUND)]
    assert unbound and all(i.get("wrapper") for i in unbound)
    for section in sections:
        for part in ("original", "modified"):
            for ins in section[part]["instructions"]:
                assert ins.get("line") != 0 or ins.get("wrapper"), ins
    # the resume function returns the cell's values; the cell returns what its resume does
    returns = [s for b in sections for s in b["reading"]["steps"] if s["kind"] == "return"]
    assert returns and all(s.get("wrapper") for s in returns)
    assert all("handed back by its wrapper" in s["text"] for s in returns)
    user = [i for i in first if not i.get("wrapper") and i["opname"] != "RESUME"]
    assert {i["line"] for i in user} <= {2, 3, 4, 5}  # the cell's own lines


def test_the_report_draws_the_wrappers_instructions_apart(exploration):
    page = render_html(exploration.document)
    assert '<tr class="tcx-bc-wrapper"><td>0</td>' in page or 'class="tcx-bc-wrapper"' in page
    assert '<li class="tcx-bc-wrapper">' in page
