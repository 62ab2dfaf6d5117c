"""compare()'s grid in a real browser: saved notebooks, no kernel.

A compare() output shows the grid, and a row opens its explorer whose Compare tab shows the
same grid with that row highlighted; the output a `%%tcompile --compare` cell left in the
executed tour notebook shows the grid too (no widget waiting for a kernel). Skipped, with
the reason, where test_lab_extension.py is; screenshots go to $TCX_SCREENSHOTS (or a pytest
temporary folder).
"""

from __future__ import annotations

import json

import pytest
import torch

import tcexplore

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook
from .test_lab_extension import REASON

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


def scaled(t):
    return (t.sin() * 2).relu().sum(dim=0)


@pytest.fixture(scope="module")
def lab(tour, tmp_path_factory):
    torch.manual_seed(0)
    grid = tcexplore.compare(scaled, torch.randn(32, 32), backends=["eager", "aot_eager"],
                             time_budget_s=0.02)
    root = tmp_path_factory.mktemp("lab-compare")
    write_notebook(root / "grid.ipynb", [grid._repr_mimebundle_()],
                   ['tcexplore.compare(scaled, x, backends=["eager", "aot_eager"])'])
    panel = next(c for c in tour.notebook.cells if c.metadata.get("name") == "compare")
    saved = {"cells": [panel], "metadata": tour.notebook.metadata, "nbformat": 4,
             "nbformat_minor": 5}
    (root / "panel.ipynb").write_text(json.dumps(saved), encoding="utf-8")
    with lab_server(root, tmp_path_factory.mktemp("lab-compare-work")) as lab:
        yield lab


def _open(page, lab, name):
    page.goto(lab.url(name) + "&reset")  # a fresh workspace: this notebook alone
    dismiss_kernel_dialog(page)
    view = page.locator(".tcx-comparison-view")
    view.wait_for(timeout=90_000)
    return view


def test_a_saved_grid_opens_a_rows_explorer_below_it_without_a_second_grid(lab, shots):
    with chromium_page() as page:
        view = _open(page, lab, "grid.ipynb")
        assert view.locator("svg.tcx-axis-chart").count() == 2
        rows = view.locator(".tcx-compare-table tbody tr")
        assert rows.count() == 2
        assert "aot_eager / default / dynamic=None" in rows.nth(1).inner_text()
        view.screenshot(path=str(shots / "compare-grid.png"))
        rows.nth(1).click()
        explorer = view.locator(".tcx-compare-detail .tcx-explorer")
        explorer.wait_for()
        assert "aot_eager" in view.locator(".tcx-compare-detail h4").inner_text()
        assert explorer.locator("[role=tab][data-tab=compare]").is_hidden()
        assert view.locator(".tcx-compare-table").count() == 1  # not drawn again inside
        assert view.locator("tr.tcx-opened").get_attribute("data-row") == "1"
        view.screenshot(path=str(shots / "compare-row-explorer.png"))
        assert page.errors == []


def test_a_saved_compare_cell_shows_the_grid_not_a_widget(lab, shots):
    with chromium_page() as page:
        view = _open(page, lab, "panel.ipynb")
        assert view.locator(".tcx-compare-table tbody tr").count() == 2
        assert "Loading widget" not in page.locator(".jp-Notebook").inner_text()
        view.locator(".tcx-compare-table tbody tr").first.click()
        view.locator(".tcx-compare-detail .tcx-explorer [role=tab]").first.wait_for()
        page.locator(".jp-Cell").first.screenshot(path=str(shots / "compare-panel-saved.png"))
        assert page.errors == []
