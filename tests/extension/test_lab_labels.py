"""One cause, one label, in JupyterLab and in the saved HTML report (Chromium): a real dropout
training step (tests/fixtures/labels) differs only because of random ops, and every view
says so in the warning look: the Overview's accuracy finding, the Accuracy tab's outputs and
gradients, the HTML report's tables; the pipeline claims no CUDA graph on CPU.
Screenshots go to $TCX_SCREENSHOTS (or a temporary folder).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tcexplore
from tcexplore.common.formatting import fmt_num, format_bytes, rate, time_us
from tcexplore.render.html import render_html
from tcexplore.render.notebook import mime_bundle

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook
from .test_lab_extension import REASON

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
FIXTURE = Path(__file__).parents[1] / "fixtures" / "labels"
RANDOM = "differs (random ops)"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = tmp_path_factory.mktemp("labels-nb")
    data = json.loads((FIXTURE / "document.json").read_text())
    write_notebook(root / "labels.ipynb", [mime_bundle(data, "tcexplore document")],
                   ["tcexplore.explore(step, x, y, profile=True, memory=True)"])
    with lab_server(root, tmp_path_factory.mktemp("lab-work")) as lab, \
            chromium_page(1400, 1000) as page:
        page.goto(lab.url("labels.ipynb"))
        dismiss_kernel_dialog(page)
        page.wait_for_selector(".tcx-explorer [role=tab]", timeout=90_000)
        yield page
        assert page.errors == []


def _tab(page, name: str):
    explorer = page.locator(".tcx-explorer").first
    explorer.locator(f"[role=tab][data-tab={name}]").click()
    panel = explorer.locator(f"[role=tabpanel][data-tab={name}]")
    panel.wait_for(state="visible")
    return panel


def test_overview_says_random_ops_and_draws_no_cuda_graph(page, shots):
    panel = _tab(page, "overview")
    finding = panel.locator(".tcx-finding[data-kind=accuracy]")
    assert "tcx-warning" in finding.get_attribute("class")
    assert "at a random op" in finding.inner_text()
    cuda = panel.locator(".tcx-stage").last
    assert "tcx-inactive" in cuda.get_attribute("class")
    assert "graphed" not in cuda.inner_text()
    panel.screenshot(path=str(shots / "labels-overview.png"))


def test_accuracy_tab_labels_outputs_and_gradients_alike(page, shots):
    panel = _tab(page, "accuracy")
    labels = panel.locator("td:nth-child(2) span")
    texts = [labels.nth(i).inner_text() for i in range(labels.count())]
    assert texts.count(RANDOM) == 5, texts  # the loss and 4 gradients
    assert panel.locator(".tcx-bad").count() == 0
    panel.screenshot(path=str(shots / "labels-accuracy.png"))


def test_timing_tab_shows_the_stored_verdict(page, shots):
    panel = _tab(page, "timing")
    expected = json.loads((FIXTURE / "expected.json").read_text())["timing"]
    text = panel.inner_text()
    assert expected["headline"] in text and expected["measurement"] in text
    panel.screenshot(path=str(shots / "labels-timing.png"))


def test_profile_tab_writes_numbers_as_the_report_does(page, shots):
    """tcexplore/common/formatting.py and model/format.ts spell a figure alike: the kernels' launches,
    FLOPs and bandwidth read the same in the Profile tab as in the HTML report, and no figure
    of the kernel table has an exponent."""
    panel = _tab(page, "profile")
    text = panel.inner_text()
    data = json.loads((FIXTURE / "document.json").read_text())
    report = render_html(tcexplore.Document(data))
    # the slowest kernel's FLOPs, time, bytes and bandwidth, as Python spells them
    row = data["profile"]["kernels"][0]
    spelled = (fmt_num(row["flops"]), time_us(row["time_us"]), format_bytes(row["bytes"]),
               rate(row["achieved_gbps"], "GB/s"))
    for figure in spelled:
        assert figure in text and figure in report, figure
    figures = panel.locator(".tcx-kernel-times tbody td").evaluate_all(
        "cells => cells.filter(c => c.cellIndex >= 2 && c.cellIndex <= 10).map(c => c.textContent)")
    assert figures and not [f for f in figures if re.search(r"\de[+-]?\d", f)], figures
    panel.screenshot(path=str(shots / "labels-profile.png"))


def test_html_report_labels_the_same_way(page, tmp_path, shots):
    report = tcexplore.Document(json.loads((FIXTURE / "document.json").read_text()))
    path = report.save(tmp_path / "dropout.html")
    page = page.context.browser.new_page(viewport={"width": 1400, "height": 1000})  # beside JupyterLab
    try:
        page.goto(path.as_uri())
        section = page.locator(".tcx-measurements")
        labels = section.locator(".tcx-accuracy-table .tcx-status, .tcx-gradients-table .tcx-status")
        texts = [labels.nth(i).inner_text() for i in range(labels.count())]
        assert texts == [RANDOM] * 5, texts
        assert section.locator(".tcx-status-failed").count() == 0
        section.locator(".tcx-accuracy").screenshot(path=str(shots / "labels-report-accuracy.png"))
        page.locator(".tcx-pipeline").screenshot(path=str(shots / "labels-report-pipeline.png"))
        section.locator(".tcx-timing").screenshot(path=str(shots / "labels-report-timing.png"))
    finally:
        page.close()
