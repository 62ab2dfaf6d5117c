"""Each launch on its own, in JupyterLab (Chromium): three Linear layers profiled by
explore(profile=True). The Fusion tab lists each call of ``extern_kernels.addmm`` by its own
label with the time of that call (the Profile tab's row for it), never one total on every
call; the ReLU kernel Inductor launches from two lines shows each launch with its nodes and
time. Screenshots go to $TCX_SCREENSHOTS (or a temporary folder).
"""

from __future__ import annotations

import pytest
import torch

import tcexplore
from tcexplore.render.notebook import mime_bundle

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook
from .test_lab_extension import REASON
from ..measure.test_profile_launches import ThreeLinears

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


@pytest.fixture(scope="module")
def document() -> dict:
    torch.manual_seed(0)
    return tcexplore.explore(ThreeLinears(), torch.randn(16, 32), profile=True,
                             time_budget_s=0.1).document.data


@pytest.fixture(scope="module")
def page(document, tmp_path_factory):
    root = tmp_path_factory.mktemp("launches-nb")
    write_notebook(root / "launches.ipynb", [mime_bundle(document, "tcexplore document")],
                   ["tcexplore.explore(ThreeLinears(), x, profile=True)"])
    with lab_server(root, tmp_path_factory.mktemp("lab-work")) as lab, \
            chromium_page(1400, 1000) as page:
        page.goto(lab.url("launches.ipynb"))
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


def _profile_times(page) -> dict[str, str]:
    """The Profile tab's kernel rows: label -> "time · share" as the Fusion list writes it."""
    rows = _tab(page, "profile").locator("table.tcx-kernel-times tbody tr[data-index]")
    times = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        times[cells.nth(0).inner_text()] = f"{cells.nth(2).inner_text()} · {cells.nth(3).inner_text()}"
    return times


def test_fusion_lists_each_call_with_its_own_time(page, document, shots):
    profiled = _profile_times(page)
    table = _tab(page, "profile").locator("table.tcx-kernel-times")
    table.scroll_into_view_if_needed()
    table.screenshot(path=str(shots / "launches-profile.png"))
    panel = _tab(page, "fusion")
    items = panel.locator(".tcx-kernel-item")
    seen = {}
    for i in range(items.count()):
        item = items.nth(i)
        label = item.locator(".tcx-kernel-button").inner_text().split()[0]
        seen[label] = item.locator(".tcx-kernel-time").inner_text()
    calls = [f"extern_kernels.addmm#{n}" for n in (1, 2, 3)]
    assert set(calls) <= set(seen)
    for label in calls:
        assert seen[label] == profiled[label]  # its own row, not the name's total
    relu = next(label for label in seen if label.startswith("cpp_fused_relu"))
    assert seen[relu].startswith(profiled[relu]) and seen[relu].endswith("· 2 launches")

    panel.locator(".tcx-kernel-item[data-index]", has_text="extern_kernels.addmm#2").click()
    info = panel.locator(".tcx-kernelinfo")
    assert info.locator("h4").inner_text().strip() == "extern_kernels.addmm#2"
    assert "self.second(x)" in info.inner_text() and "self.first(x)" not in info.inner_text()

    panel.locator(".tcx-kernel-item", has_text=relu).click()
    launches = info.locator(".tcx-launch")
    assert launches.count() == 2
    assert [launches.nth(i).locator("code").inner_text() for i in range(2)] == ["relu", "relu_1"]
    assert all("µs" in launches.nth(i).inner_text() or "ms" in launches.nth(i).inner_text()
               for i in range(2))
    panel.screenshot(path=str(shots / "launches-fusion.png"))
