"""The Ranks view in a real browser: a saved notebook holding a multi-rank output, no kernel.

Skipped, with the reason, where test_lab_extension.py is; screenshots go to
$TCX_SCREENSHOTS (or a pytest temporary folder).
"""

from __future__ import annotations

import pytest

import tcexplore

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook
from .test_lab_extension import REASON

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


@pytest.fixture(scope="module")
def lab(rank_runs, tmp_path_factory):
    view = tcexplore.ranks(rank_runs["bigger_batch"].workdir / "out.json")
    root = tmp_path_factory.mktemp("lab-ranks")
    write_notebook(root / "ranks.ipynb", [view._repr_mimebundle_()], ["tcexplore.ranks('out.json')"])
    with lab_server(root, tmp_path_factory.mktemp("lab-ranks-work")) as lab:
        yield lab


def test_ranks_view_shows_divergence_first_and_opens_the_recompiling_rank(lab, shots):
    with chromium_page() as page:
        page.goto(lab.url("ranks.ipynb"))
        dismiss_kernel_dialog(page)
        view = page.locator(".tcx-ranks-view")
        view.wait_for(timeout=90_000)
        overview = view.locator("[role=tabpanel][data-tab=ranks]")
        text = overview.inner_text()
        assert text.index("rank 1 recompiled `step`") < text.index("Ranks side by side")
        assert "expected 4, actual 6" in text
        page.screenshot(path=str(shots / "ranks.png"))
        overview.get_by_role("button", name="compile 0/1 on rank 1").click()
        rank1 = view.locator("[role=tabpanel][data-tab=rank-1]")
        rank1.locator(".tcx-explorer [role=tab][data-tab=guards][aria-selected=true]").wait_for()
        assert "size mismatch" in rank1.locator("[data-compile='0/1']").inner_text()
        view.screenshot(path=str(shots / "ranks-rank1-guards.png"))
        rank1.locator("[role=tab][data-tab=overview]").click()
        assert "rank 1 of 2 (gloo)" in rank1.locator("[data-tab=overview][role=tabpanel]").inner_text()
        assert page.errors == []
