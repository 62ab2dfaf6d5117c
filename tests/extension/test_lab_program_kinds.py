"""Compiled autograd and unbacked sizes in JupyterLab (Chromium): the compile tree hangs the
traced backward under the step that ran it, the Shapes tab lists each unbacked symbol with
the line that made it and the runtime asserts that check it. Screenshots go to
$TCX_SCREENSHOTS (or a temporary folder)."""

from __future__ import annotations

import pytest

from tcexplore.render.notebook import mime_bundle

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook
from .test_lab_extension import REASON

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


@pytest.fixture(scope="module")
def page(program_runs, tmp_path_factory):
    root = tmp_path_factory.mktemp("kinds-nb")
    outputs = [mime_bundle(program_runs[name].document, "tcexplore document")
               for name in ("compiled_autograd", "unbacked_sizes")]
    write_notebook(root / "kinds.ipynb", outputs, ["run compiled_autograd.py", "run unbacked_sizes.py"])
    with lab_server(root, tmp_path_factory.mktemp("lab-work")) as lab, \
            chromium_page(1400, 1000) as page:
        page.goto(lab.url("kinds.ipynb"))
        dismiss_kernel_dialog(page)
        page.wait_for_selector(".tcx-explorer [role=tab]", timeout=90_000)
        yield page
        assert page.errors == []


def _tab(page, index: int, name: str):
    explorer = page.locator(".tcx-explorer").nth(index)
    explorer.locator(f"[role=tab][data-tab={name}]").click()
    panel = explorer.locator(f"[role=tabpanel][data-tab={name}]")
    panel.wait_for(state="visible")
    return panel


def test_compile_tree_shows_the_backward_under_its_step(page, program_runs, shots):
    panel = _tab(page, 0, "overview")
    tree = panel.locator(".tcx-compile-tree")
    backward = tree.locator(".tcx-tree-backward")
    passes = program_runs["compiled_autograd"].document["compiled_autograd"]
    assert backward.count() == len(passes)
    assert "loss.backward()" in backward.first.inner_text()
    step = tree.locator("li.tcx-tree-frame", has=page.locator("[data-compile='0/0']")).first
    assert step.locator(".tcx-tree-backward").count() == len(passes)
    assert step.locator("[data-compile='!0/1/0']").count() == 1
    tree.scroll_into_view_if_needed()
    tree.screenshot(path=str(shots / "kinds-compile-tree.png"))


def test_shapes_tab_lists_unbacked_symbols_with_their_checks(page, shots):
    panel = _tab(page, 1, "shapes")
    text = panel.inner_text()
    assert "made by" in text and "x.nonzero().squeeze(1)" in text and ".item()" in text
    assert "runtime assert: inference code line" in text
    panel.screenshot(path=str(shots / "kinds-shapes.png"))
