"""The Ranks view in a real browser: a saved notebook holding a multi-rank output, no kernel.

Skipped, with the reason, where test_lab_extension.py is; screenshots go to
$TCX_SCREENSHOTS (or a pytest temporary folder).
"""

from __future__ import annotations

import shutil

import pytest

import tcexplore

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook
from .test_lab_extension import REASON

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


def _job_folder(run, folder):
    """The job's logs, an empty file, a note, and rank 0's log copied under rank 2's name."""
    folder.mkdir()
    logs = sorted((run.workdir / "trace").glob("*.log"))
    for log in logs:
        shutil.copy(log, folder / log.name)
    (folder / "another.log").write_bytes(b"")
    (folder / "notes.txt").write_text("rank 1 was restarted at 14:02\n")
    shutil.copy(logs[0], folder / "dedicated_log_torch_trace_rank_2.log")
    return folder


@pytest.fixture(scope="module")
def lab(rank_runs, tmp_path_factory):
    view = tcexplore.ranks(rank_runs["bigger_batch"].workdir / "out.json")
    root = tmp_path_factory.mktemp("lab-ranks")
    folder = tcexplore.ranks(_job_folder(rank_runs["bigger_batch"], root / "trace"), jobs=1)
    write_notebook(root / "ranks.ipynb", [view._repr_mimebundle_()], ["tcexplore.ranks('out.json')"])
    write_notebook(root / "folder.ipynb", [folder._repr_mimebundle_()], ["tcexplore.ranks('trace')"])
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


def test_a_job_folder_says_what_it_skipped_and_how_it_settled_a_rank(lab, shots):
    with chromium_page() as page:
        page.goto(lab.url("folder.ipynb") + "&reset")  # not the workspace of the test before
        dismiss_kernel_dialog(page)
        view = page.locator(".tcx-ranks-view")
        view.wait_for(timeout=90_000)
        overview = view.locator("[role=tabpanel][data-tab=ranks]")
        headline = overview.locator(".tcx-ranks-headline").inner_text()
        assert headline.startswith("3 ranks: ")
        assert "the inputs held more than one file for rank 0; 2 files skipped" in headline
        finding = overview.locator(".tcx-divergence[data-kind=inputs]").inner_text()
        assert "2 files claim rank 0: 1 read as rank 2, as its file name says" in finding
        inputs = overview.locator(".tcx-rank-inputs")
        assert "Inputs (3 of 5 files read)" in inputs.inner_text()
        assert "another.log" in inputs.inner_text() and "empty" in inputs.inner_text()
        rank_row = overview.locator(".tcx-ranks-table tr", has_text="from its file name")
        assert "its metadata says rank 0" in rank_row.inner_text()
        page.screenshot(path=str(shots / "ranks-folder.png"), full_page=True)
        assert page.errors == []
