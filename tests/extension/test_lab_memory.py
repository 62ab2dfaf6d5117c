"""The Memory tab and the memory finding in JupyterLab, from a saved notebook with no kernel
(Chromium).

The notebook holds tests/fixtures/memory/explored.json as its output: explore(MLP(),
torch.randn(256, 32), memory=True) of tests/measure/test_memory.py's MLP on CPU torch 2.13.
Screenshots go to $TCX_SCREENSHOTS (or a temporary folder).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcexplore.render.notebook import mime_bundle

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook
from .test_lab_extension import REASON

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
DOCUMENT = Path(__file__).parents[1] / "fixtures" / "memory" / "explored.json"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = tmp_path_factory.mktemp("memory-nb")
    data = json.loads(DOCUMENT.read_text())
    write_notebook(root / "memory.ipynb", [mime_bundle(data, "tcexplore document")],
                   ["tcexplore.explore(MLP(), torch.randn(256, 32), memory=True)"])
    with lab_server(root, tmp_path_factory.mktemp("lab-work")) as lab, \
            chromium_page(1400, 1000) as page:
        page.goto(lab.url("memory.ipynb"))
        dismiss_kernel_dialog(page)
        page.wait_for_selector(".tcx-explorer [role=tab]", timeout=90_000)
        yield page
        assert page.errors == []


def test_overview_shows_the_memory_finding(page, shots):
    finding = page.locator(".tcx-explorer .tcx-finding[data-kind=memory]")
    finding.wait_for(state="visible")
    text = finding.inner_text()
    assert "compiled peaks at 248 kB vs eager 297 kB" in text
    assert "131 kB of activations saved at lines 27-28" in text
    finding.scroll_into_view_if_needed()
    finding.screenshot(path=str(shots / "memory-finding.png"))


def test_memory_tab_shows_saved_tensors_and_links_to_their_graph_node(page, shots):
    explorer = page.locator(".tcx-explorer").first
    explorer.locator("[role=tab][data-tab=memory]").click()
    panel = explorer.locator("[role=tabpanel][data-tab=memory]")
    panel.wait_for(state="visible")
    rows = panel.locator(".tcx-memory-saved tbody tr")
    assert rows.count() == 5
    assert "test_memory.py" in rows.first.inner_text()
    assert panel.locator(".tcx-memory-buffers tbody tr").count() == 2
    panel.screenshot(path=str(shots / "memory-tab.png"))
    rows.first.locator("button").first.click()
    graphs = explorer.locator("[role=tabpanel][data-tab=graphs]")
    graphs.wait_for(state="visible")
    assert graphs.locator(".tcx-selected").count() >= 1
