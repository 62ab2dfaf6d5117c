"""The diff view in a real browser: a saved notebook with two explorations and their diff,
no kernel. The diff renders side by side, links into the explorers above it, and the
sidebar diffs two picked explorations in the browser. Screenshots go to $TCX_SCREENSHOTS
(or a pytest temporary folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tcexplore

from .lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook
from .test_lab_extension import REASON

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

FIXTURE = Path(__file__).parent / "fixtures" / "docdiff"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    relu, gelu = (tcexplore.load(FIXTURE / f"{name}.json") for name in ("relu", "gelu"))
    diff = tcexplore.diff(relu, gelu, labels=("relu", "gelu"))
    root = tmp_path_factory.mktemp("lab-root")
    write_notebook(root / "diff.ipynb",
                   [relu._repr_mimebundle_(), gelu._repr_mimebundle_(), diff._repr_mimebundle_()],
                   ["relu = tcexplore.explore(step_relu, x, y)", "gelu = tcexplore.explore(step_gelu, x, y)",
                    "tcexplore.diff(relu, gelu)"])
    with lab_server(root, tmp_path_factory.mktemp("lab-work")) as lab:
        yield lab


@pytest.fixture
def page(lab):
    with chromium_page() as page:
        page.goto(lab.url("diff.ipynb"))
        dismiss_kernel_dialog(page)
        page.wait_for_selector(".tcx-diffview .tcx-diff-compile", timeout=90_000)
        yield page
        assert page.errors == []


def test_saved_diff_renders_side_by_side_without_a_kernel(lab, page, shots):
    view = page.locator(".jp-Cell").nth(2).locator(".tcx-diffview")
    view.locator(".tcx-diff-head").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "diff-view-top.png"))
    dynamo = view.locator("[data-graph=dynamo]")
    assert dynamo.locator("tbody tr").count() == 1
    assert "torch.relu → torch._C._nn.gelu" in dynamo.inner_text()
    kernel = view.locator(".tcx-diff-kernel").first
    kernel.locator("summary .tcx-chip").click()  # the names in the summary are links
    source = kernel.locator(".tcx-diff-source")
    source.wait_for()
    assert source.locator("td.tcx-diff-removed").count() > 0
    assert source.locator("td.tcx-diff-added").count() > 0
    source.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "diff-view-kernel.png"))
    assert lab.running_kernels() == []


def test_a_node_links_into_the_explorer_of_its_side(page, shots):
    view = page.locator(".jp-Cell").nth(2).locator(".tcx-diffview")
    view.locator("[data-graph=dynamo] tbody tr td").nth(2).locator(".tcx-link").click()
    gelu = page.locator(".jp-Cell").nth(1).locator(".tcx-explorer")
    tab = gelu.locator("[role=tab][data-tab=graphs]")
    page.wait_for_function("el => el.getAttribute('aria-selected') === 'true'", arg=tab.element_handle())
    assert gelu.locator(".tcx-node.tcx-selected").get_attribute("data-name") == "h_1"
    gelu.screenshot(path=str(shots / "diff-linked-explorer.png"))


def test_sidebar_diffs_two_picked_explorations_in_the_browser(page, shots):
    page.locator(".jp-SideBar [title^='tcexplore']").click()
    picks = page.locator(".tcx-sidebar .tcx-pick")
    picks.first.wait_for(timeout=10_000)
    assert picks.count() == 2
    picks.nth(0).check()
    picks.nth(1).check()
    # the sidebar redraws after each pick: wait for the redrawn, enabled button
    page.locator(".tcx-sidebar-diff-button:not([disabled])").click(timeout=10_000)
    panel = page.locator(".tcx-diff-panel .tcx-diffview")
    panel.wait_for(timeout=10_000)
    assert "torch._C._nn.gelu" in panel.locator("[data-graph=dynamo]").inner_text()
    page.screenshot(path=str(shots / "diff-from-sidebar.png"))
