"""The diff view in a real browser: a saved notebook with explorations made in one process
(relu, gelu, relu again: torch numbered their compiles 0/0, 2/0, 4/0) and a diff, no
kernel. The diff renders side by side, links into the explorers above it, and the
sidebar, its rows numbered by execution count, diffs two picked explorations in the
browser: relu against gelu names the change, relu against relu again finds only that the
second was a hit in the FX graph cache the first filled.
Screenshots go to $TCX_SCREENSHOTS (or a pytest temporary folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tcexplore

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook
from .test_lab_extension import REASON

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

FIXTURE = Path(__file__).parents[1] / "fixtures" / "docdiff"
EXECUTION_COUNTS = [3, 5, 6, 9]  # a session's cells, run with others between them


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    relu, gelu, again = (tcexplore.load(FIXTURE / f"{name}.json")
                         for name in ("relu", "gelu", "relu_again"))
    diff = tcexplore.diff(relu, gelu, labels=("relu", "gelu"))
    root = tmp_path_factory.mktemp("lab-root")
    write_notebook(root / "diff.ipynb",
                   [relu._repr_mimebundle_(), gelu._repr_mimebundle_(), diff._repr_mimebundle_(),
                    again._repr_mimebundle_()],
                   ["relu = tcexplore.explore(step_relu, x, y)", "gelu = tcexplore.explore(step_gelu, x, y)",
                    "tcexplore.diff(relu, gelu)", "again = tcexplore.explore(step_relu, x, y)"],
                   execution_counts=EXECUTION_COUNTS)
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


def _diff_from_sidebar(page, first: int, second: int):
    page.locator(".jp-SideBar [title^='tcexplore']").click()
    picks = page.locator(".tcx-sidebar .tcx-pick")
    picks.first.wait_for(timeout=10_000)
    assert picks.count() == 3
    labels = page.locator(".tcx-sidebar .tcx-sidebar-label").all_inner_texts()
    assert [label.split(" ")[0] for label in labels] == ["[3]", "[5]", "[9]"]  # not [1] [2] [4]
    picks.nth(first).check()
    picks.nth(second).check()
    # the sidebar redraws after each pick: wait for the redrawn, enabled button
    page.locator(".tcx-sidebar-diff-button:not([disabled])").click(timeout=10_000)
    panel = page.locator(".tcx-diff-panel .tcx-diffview")
    panel.wait_for(timeout=10_000)
    return panel


def test_sidebar_diffs_two_picked_explorations_in_the_browser(page, shots):
    panel = _diff_from_sidebar(page, 0, 1)
    assert "torch._C._nn.gelu" in panel.locator("[data-graph=dynamo]").inner_text()
    heads = panel.locator(".tcx-diff-side strong").all_inner_texts()
    assert heads[0].startswith("A · diff.ipynb [3] step") and heads[1].startswith("B · diff.ipynb [5]")
    page.screenshot(path=str(shots / "diff-from-sidebar.png"))


def test_sidebar_diff_of_one_function_explored_twice_in_one_process_finds_its_cache_hit(
        page, shots):
    panel = _diff_from_sidebar(page, 0, 2)
    text = panel.inner_text()
    assert panel.locator(".tcx-diff-compile").count() == 1  # the step; its resume the same
    assert "cache_hit" in text and "0/0" in text and "4/0" in text
    assert panel.locator("td.tcx-diff-added, td.tcx-diff-removed").count() == 0
    page.screenshot(path=str(shots / "diff-from-sidebar-same.png"))
