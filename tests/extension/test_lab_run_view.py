"""The Run tab in a real browser (#35): a saved notebook, no kernel, whose output is a real
``%%tcompile --profile`` of a cell that breaks once; the tab draws the headline, the
compiled spans and the break's gap as the document stores them, and the HTML report of the
same document draws its run view. Screenshots of both go to $TCX_SCREENSHOTS (or a pytest
temporary folder) for a person to look at.

Needs chromium, playwright, jupyterlab and the extension built (``pip install -e .``, or a
build on $JUPYTER_PATH); skipped with the reason otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, missing, write_notebook

pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")

INSTALLED = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "tcexplore" / "package.json"
REASON = missing() or (None if INSTALLED.exists() else
                       f"the lab extension is not installed at {INSTALLED.parent} (pip install -e . builds it)")
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

CELL = """\
%%tcompile --profile --time-budget 0.1 --out profiled
y = x.sin() * 2
print("", end="")  # the graph break
z = y.cos() + 1"""
BREAK_LINE = 3  # the cell's line (the magic's is 1)


@pytest.fixture(scope="module")
def profiled(tmp_path_factory):
    """The cell's document, and the notebook and report made of it, in a JupyterLab."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    assert shell.run_cell("import torch\n%load_ext tcexplore\nx = torch.randn(64)").success
    count = shell.execution_count
    assert shell.run_cell(CELL).success
    exploration = shell.user_ns["profiled"]
    root = tmp_path_factory.mktemp("lab-root")
    write_notebook(root / "profiled.ipynb", [exploration._repr_mimebundle_()], [CELL], [count])
    exploration.document.save(root / "report.html")
    with lab_server(root, tmp_path_factory.mktemp("lab-work")) as lab:
        yield exploration.document.data, lab, root / "report.html", count


def test_the_run_tab_draws_the_stored_headline_spans_and_the_breaks_gap(profiled, shots):
    data, lab, _, count = profiled
    run = data["profile"]["run"]
    (gap,) = [g for g in run["gaps"] if g["kind"] == "graph_break"]
    assert gap["line"] == BREAK_LINE and f"cell [{count}], line {BREAK_LINE}" in gap["label"]
    with chromium_page() as page:
        page.goto(lab.url("profiled.ipynb"))
        dismiss_kernel_dialog(page)
        explorer = page.locator(".tcx-explorer").first
        tab = explorer.locator("[role=tab][data-tab=run]")
        tab.wait_for(timeout=90_000)
        tab.click()
        panel = explorer.locator("[role=tabpanel][data-tab=run]")
        assert panel.locator(".tcx-run-headline").inner_text() == run["headline"]
        compiled = panel.locator(".tcx-run-timeline .tcx-span-compiled")
        drawn = [s for s in run["timeline"]["spans"] if s["kind"] == "compiled"]
        assert compiled.count() == len(drawn) == len(run["frames"]) == 2
        for i, span in enumerate(drawn):  # each compiled bar says its compile and frame
            assert compiled.nth(i).locator("title").text_content().startswith(span["label"])
        labels = panel.locator(".tcx-run-timeline text").all_text_contents()
        assert any(span["label"] in labels for span in drawn)
        bar = next(s for s in run["timeline"]["spans"] if s["gap"] == run["gaps"].index(gap))
        assert bar["label"] == f"break at cell [{count}], line {BREAK_LINE}"
        assert bar["label"] in labels  # the gap's bar is labelled on the timeline
        breaks = panel.locator(".tcx-run-timeline .tcx-span-break")  # coloured as a break's
        assert breaks.count() == sum(s["gap"] == run["gaps"].index(gap) for s in run["timeline"]["spans"])
        gaps = panel.locator("table.tcx-run-gaps tbody tr")
        assert gap["label"] in gaps.all_inner_texts()[run["gaps"].index(gap)]
        assert panel.evaluate("p => p.scrollWidth <= p.clientWidth + 1"), "the Run tab scrolls sideways"
        ticks = panel.locator(".tcx-run-timeline text.tcx-tick").all_text_contents()
        assert ticks == [t["label"] for t in run["timeline"]["axis"]["ticks"]]  # ends at the step's end
        explorer.screenshot(path=str(shots / "run-tab.png"))
        panel.locator(".tcx-run-timeline .tcx-span-eager[data-row]").first.click()
        assert panel.locator("table.tcx-run-gaps tr.tcx-active").count() == 1
        assert page.errors == []
    assert lab.running_kernels() == []


def test_the_reports_run_view_draws_the_same_document(profiled, shots):
    data, _, report, _ = profiled
    run = data["profile"]["run"]
    with chromium_page() as page:
        page.goto(report.as_uri())
        steps = page.locator("#tcx-steps")
        steps.scroll_into_view_if_needed()
        assert run["headline"] in steps.inner_text()
        assert steps.locator("svg.tcx-run-timeline rect").count() == len(run["timeline"]["spans"])
        steps.screenshot(path=str(shots / "report-run-view.png"))
        assert page.errors == []
