"""The report in a real browser (Chromium through Playwright), with no network.

Two pages: an exploration saved by ``Exploration.save`` in the notebook kernel, and the
executed notebook converted by nbconvert (a front end without any tcexplore extension).
Screenshots go to $TCX_SCREENSHOTS, or to a temporary folder (the `shots` fixture of conftest.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage"]

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(sync_playwright is None,
                       reason="the playwright package is missing (it is in the `test` extra)"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"{CHROMIUM} is missing: apt-get install -y chromium"),
]


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Visit:
    """A page with its page errors, dialogs (an alert would mean injected script ran) and
    the requests it tried beyond its own file, all of which are refused."""

    def __init__(self, browser, path: Path):
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("dialog", self._dialog)
        self.page.route("**/*", self._route)
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _route(self, route) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            self.requests.append(route.request.url)
            route.abort()


def _toggle(section, table_selector: str) -> None:
    """Open a closed <details> by clicking its summary, see its table, close it again."""
    summary = section.locator(":scope > summary")
    assert section.get_attribute("open") is None
    summary.click()
    assert section.get_attribute("open") is not None
    assert section.locator(table_selector).first.is_visible()
    summary.click()
    assert section.get_attribute("open") is None
    assert not section.locator(table_selector).first.is_visible()


def test_saved_exploration_renders_offline(tour, browser, shots):
    visit = Visit(browser, tour.directory / "plain.html")
    page = visit.page
    page.screenshot(path=str(shots / "exploration.png"), full_page=True)
    assert visit.errors == [] and visit.dialogs == []
    assert visit.requests == [], "the saved page is self-contained"
    assert page.locator("h1").inner_text() == "torch.compile report"
    for table in ("table.tcx-summary", "table.tcx-timing-table", "table.tcx-accuracy-table",
                  "table.tcx-source-table"):
        assert page.locator(table).is_visible(), table
    source = page.locator("table.tcx-source-table").inner_text()
    assert "h = (x @ w).relu()" in source and "cpp_fused" in source
    label = f"cell [{tour.cell('plain').execution_count}], line 2"
    assert label in page.locator("table.tcx-compile-index").inner_text()
    assert page.locator("table.tcx-source-table").bounding_box()["height"] > 60
    _toggle(page.locator("#tcx-compile-time"), "table.tcx-compile-time-table")
    compile_ = page.locator("details.tcx-compile").first
    compile_.locator(":scope > summary").click()
    graph = compile_.locator("details.tcx-dynamo-graph")
    graph.locator(":scope > summary").click()
    drawn = graph.locator("div.tcx-graph-svg svg")
    if shutil.which("dot"):
        assert drawn.is_visible() and drawn.bounding_box()["height"] > 100
        assert "relu" in drawn.text_content()
    else:
        assert graph.locator("table.tcx-graph-table").is_visible()
    compile_.screenshot(path=str(shots / "exploration-compile.png"))


def test_notebook_without_extension_shows_the_reports(tour, browser, shots):
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter(template_name="lab").from_notebook_node(tour.notebook)
    page_file = tour.directory / "tour.html"
    page_file.write_text(body, encoding="utf-8")
    visit = Visit(browser, page_file)
    page = visit.page
    page.screenshot(path=str(shots / "notebook.png"), full_page=True)
    # nbconvert's template asks for require.js, MathJax and the widget manager from CDNs;
    # they are refused, and the reports need none of them.
    assert visit.errors == [] and visit.dialogs == []
    reports = page.locator("div.tcx-report:not(.tcx-comparison)")
    assert reports.count() == 5  # plain, graph break, recompile, raising cell, explore()
    assert page.locator("img[src=x]").count() == 0, "hostile markup stays text"
    breaks = reports.nth(1)
    assert breaks.locator("table.tcx-source-table").is_visible()
    assert "1 graph break (#1)" in breaks.locator("table.tcx-source-table").inner_text()
    _toggle(breaks.locator("details.tcx-graph-breaks"), "details.tcx-graph-break")
    failing = reports.nth(3)
    assert failing.locator(".tcx-error").first.is_visible()
    assert "ValueError" in failing.locator(".tcx-error").first.inner_text()
    breaks.screenshot(path=str(shots / "notebook-graph-break.png"))
    # The --compare grid is plain HTML here: its charts and its table.
    grid = page.locator("div.tcx-comparison")
    assert grid.locator("svg.tcx-axis-chart").count() == 2
    assert grid.locator("table.tcx-comparison-table tr").count() == 3
    grid.screenshot(path=str(shots / "notebook-compare.png"))
