"""The JupyterLab extension in a real browser: a saved notebook, no kernel, every tab.

Needs chromium, playwright and jupyterlab, and the extension built into this environment
(``pip install -e .`` builds it); skipped with the reason otherwise. Screenshots go to
$TCX_SCREENSHOTS (or a pytest temporary folder) for a person to look at.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import torch

import tcexplore

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, missing, write_notebook

INSTALLED = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "tcexplore" / "package.json"
REASON = missing() or (None if INSTALLED.exists() else
                       f"the lab extension is not installed at {INSTALLED.parent} (pip install -e . builds it)")
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

TABS = ["overview", "source", "graphs", "bytecode", "fusion", "code", "guards", "timing", "accuracy"]
HIDDEN = ["cudagraphs", "compare"]  # nothing to show on a CPU run with no comparison


def layer(x, y):
    a = x.sin()
    b = a * y
    if b.sum() > 0:  # a graph break
        b = b * 2
    return (b + 1).relu().sum(dim=0)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    torch.manual_seed(0)
    exploration = tcexplore.explore(layer, torch.randn(16, 8), torch.randn(16, 8), time_budget_s=0.05)
    root = tmp_path_factory.mktemp("lab-root")
    newer = {"application/vnd.tcexplore.v1+json": {"schema": "tcexplore/2"}, "text/plain": "from the future"}
    write_notebook(root / "saved.ipynb", [exploration._repr_mimebundle_(), newer],
                   ["tcexplore.explore(layer, x, y)", "future_output"])
    with lab_server(root, tmp_path_factory.mktemp("lab-work")) as lab:
        yield lab


@pytest.fixture
def page(lab):
    with chromium_page() as page:
        page.goto(lab.url("saved.ipynb"))
        dismiss_kernel_dialog(page)
        page.wait_for_selector(".tcx-explorer [role=tab]", timeout=90_000)
        yield page
        assert page.errors == []


def test_saved_notebook_renders_every_tab_without_a_kernel(lab, page, shots):
    explorer = page.locator(".tcx-explorer").first
    page.screenshot(path=str(shots / "notebook.png"))
    for name in HIDDEN:
        assert explorer.locator(f"[role=tab][data-tab={name}]").is_hidden()
    for name in TABS:
        tab = explorer.locator(f"[role=tab][data-tab={name}]")
        tab.click()
        assert tab.get_attribute("aria-selected") == "true"
        panel = explorer.locator(f"#{tab.get_attribute('aria-controls')}")
        assert panel.is_visible()
        assert panel.get_attribute("role") == "tabpanel"
        assert panel.inner_text().strip(), f"the {name} tab is empty"
        assert "could not be drawn" not in panel.inner_text()
        assert panel.evaluate("p => p.scrollHeight <= p.clientHeight + 1"), f"the {name} tab scrolls inside the page"
        explorer.screenshot(path=str(shots / f"tab-{name}.png"))
    overview = explorer.locator("[data-tab=overview][role=tabpanel]").inner_text()
    assert "Graph break ×1 at test_lab_extension.py:" in overview
    assert "in layer: Data-dependent branching" in overview
    assert explorer.locator(".tcx-graph-svg .tcx-node").count() > 0
    assert explorer.locator(".tcx-canvas button").count() == 0  # the zoom buttons sit above the drawing
    assert int(explorer.locator(".tcx-zoom-level").first.inner_text().rstrip("%")) >= 90  # legible text
    overview = explorer.locator("[data-tab=overview][role=tabpanel]").inner_text()
    assert "Not in this document:" in overview and "CUDA-graph data" in overview
    assert "a comparison grid" in overview
    newer = page.locator(".tcx-explorer").nth(1)
    assert "newer tcexplore" in newer.inner_text()
    assert lab.running_kernels() == []


def test_clicking_a_kernel_highlights_its_nodes_and_a_node_shows_its_kernel(page, shots):
    explorer = page.locator(".tcx-explorer").first
    explorer.locator("[role=tab][data-tab=fusion]").click()
    fusion = explorer.locator("[role=tabpanel][data-tab=fusion]")
    kernel = fusion.locator(".tcx-kernel-item").first
    name = kernel.get_attribute("data-kernel")
    kernel.locator("button").click()
    highlighted = fusion.locator(".tcx-node.tcx-hl")
    assert highlighted.count() > 0
    assert name in fusion.locator(".tcx-kernelinfo").inner_text()
    assert "user lines" in fusion.locator(".tcx-kernelinfo").inner_text()
    explorer.screenshot(path=str(shots / "fusion-kernel-selected.png"))
    node = highlighted.first.get_attribute("data-name")
    fusion.locator(f".tcx-node[data-name='{node}']").click()
    assert name in fusion.locator(".tcx-nodeinfo").inner_text()
    assert "tcx-active" in (kernel.get_attribute("class") or "")


def test_sidebar_lists_explorations_and_jumps_to_one(page, shots):
    page.locator(".jp-SideBar [title^='tcexplore']").click()
    entries = page.locator(".tcx-sidebar .tcx-sidebar-entry")
    entries.first.wait_for(timeout=10_000)
    assert entries.count() == 2
    assert "1 break" in entries.first.inner_text()
    page.screenshot(path=str(shots / "sidebar.png"))
    entries.nth(1).click()
    page.wait_for_function("window.jupyterapp.shell.currentWidget.content.activeCellIndex === 1")
    entries.first.click()
    page.wait_for_function("window.jupyterapp.shell.currentWidget.content.activeCellIndex === 0")
