"""The Bytecode tab and the Overview's compile tree in JupyterLab, from a saved notebook with
no kernel (Chromium).

The notebook holds tests/fixtures/bytecode/document.json (a print break after two side
effects) as its output. Screenshots go to $TCX_SCREENSHOTS (or a temporary folder).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcexplore.render.notebook import mime_bundle

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook
from .test_lab_extension import REASON

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
DOCUMENT = Path(__file__).parents[1] / "fixtures" / "bytecode" / "document.json"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = tmp_path_factory.mktemp("bytecode-nb")
    data = json.loads(DOCUMENT.read_text())
    write_notebook(root / "bytecode.ipynb", [mime_bundle(data, "tcexplore document")],
                   ["torch.compile(f, backend='eager')(torch.randn(8), Box())"])
    with lab_server(root, tmp_path_factory.mktemp("lab-work")) as lab, \
            chromium_page(1400, 1000) as page:
        page.goto(lab.url("bytecode.ipynb"))
        dismiss_kernel_dialog(page)
        page.wait_for_selector(".tcx-explorer [role=tab]", timeout=90_000)
        yield page
        assert page.errors == []


def test_overview_shows_the_compile_tree(page, shots):
    tree = page.locator(".tcx-explorer .tcx-compile-tree")
    tree.wait_for(state="visible")
    compiles = tree.locator(".tcx-tree-compile")
    assert compiles.count() == 2
    assert "restarted ×1" in compiles.nth(0).inner_text()
    assert "continues the break at" in compiles.nth(1).inner_text()
    tree.scroll_into_view_if_needed()
    tree.screenshot(path=str(shots / "compile_tree.png"))


def test_bytecode_tab_shows_both_bytecodes_side_by_side(page, shots):
    explorer = page.locator(".tcx-explorer").first
    explorer.locator("[role=tab][data-tab=bytecode]").click()
    panel = explorer.locator("[role=tabpanel][data-tab=bytecode]")
    panel.wait_for(state="visible")
    original, modified = panel.locator(".tcx-bc-original"), panel.locator(".tcx-bc-modified")
    first, second = original.bounding_box(), modified.bounding_box()
    assert abs(first["y"] - second["y"]) < 2 and first["x"] + first["width"] <= second["x"]
    assert original.locator("tr.tcx-bc-mark-break").count() > 0
    assert original.locator("tr.tcx-bc-mark-resume-point").count() == 1
    for mark in ("graph", "side_effect", "eager", "resume"):
        assert modified.locator(f"tr.tcx-bc-mark-{mark}").count() > 0, mark
    step = panel.locator("li.tcx-bc-step-eager")
    assert "print('side effect')" in step.inner_text()
    step.click()
    assert modified.locator("tr.tcx-bc-active").count() > 0
    assert "torch_dynamo_resume_in_f_at_" in panel.locator("li.tcx-bc-step-resume").inner_text()
    panel.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "bytecode_tab.png"), full_page=False)
    panel.screenshot(path=str(shots / "bytecode_panel.png"))
