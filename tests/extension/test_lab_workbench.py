""""Open as cell" in a real browser: a saved notebook, a kernel attached, the reproducer run.

The notebook is saved with an exploration's output (as if run earlier) and a python3
kernelspec; JupyterLab starts that kernel. Needs chromium, playwright, jupyterlab and the
built extension, like tests/extension/test_lab_extension.py (skipped with the reason otherwise).
"""

from __future__ import annotations

import json

import pytest
import torch

import tcexplore

from ..lab_support import chromium_page, lab_server, write_notebook
from .test_lab_extension import REASON

pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

NOTEBOOK = "window.jupyterapp.shell.currentWidget"


def project(x, w):
    return (x @ w + 1).relu().sum(dim=0)  # an extern call (addmm) and a C++ kernel


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    torch.manual_seed(0)
    exploration = tcexplore.explore(project, torch.randn(16, 8), torch.randn(8, 8),
                                    time_budget_s=0.05)
    root = tmp_path_factory.mktemp("lab-workbench")
    path = write_notebook(root / "workbench.ipynb", [exploration._repr_mimebundle_()],
                          ["tcexplore.explore(project, x, w)"])
    notebook = json.loads(path.read_text())
    notebook["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                          "language": "python"}
    path.write_text(json.dumps(notebook))
    # Dynamo numbers frames per process: the id depends on what this process compiled before
    compile_id = exploration.document.compiles[0]["id"]
    with lab_server(root, tmp_path_factory.mktemp("lab-work"), kernels=True) as server:
        yield server, compile_id


def _cell_sources(page) -> list[str]:
    return page.evaluate(f"{NOTEBOOK}.content.widgets.map(c => c.model.sharedModel.getSource())")


def test_open_as_cell_inserts_a_runnable_reproducer_below_the_output(lab, shots):
    server, compile_id = lab
    with chromium_page() as page:
        page.goto(server.url("workbench.ipynb"))
        page.wait_for_selector(".tcx-explorer [role=tab]", timeout=90_000)
        page.wait_for_function(f"{NOTEBOOK}.sessionContext.session?.kernel?.status === 'idle'",
                               timeout=120_000)
        explorer = page.locator(".tcx-explorer").first
        explorer.locator("[role=tab][data-tab=code]").click()
        code = explorer.locator("[role=tabpanel][data-tab=code]")
        name = code.locator("h4").inner_text().split(" ")[0]
        code.locator(".tcx-open-cell").click()
        page.wait_for_function(f"{NOTEBOOK}.content.widgets.length === 2", timeout=120_000)
        assert "inserted below" in code.locator(".tcx-open-status").inner_text()
        source = _cell_sources(page)[1]
        assert source.startswith(f'"""{name}: one kernel of torch.compile\'s output')
        assert "\nEDITED = r'''" in source and "def make_args(" in source
        page.screenshot(path=str(shots / "open-as-cell-inserted.png"))

        page.evaluate("window.jupyterapp.commands.execute('notebook:run-cell')")
        # The whole output area: torch may log to stderr first (a CUDA build on a CPU
        # machine warns that it finds no CUDA runtime when it compiles the C++ kernel).
        output = page.locator(".jp-Notebook .jp-Cell").nth(1).locator(".jp-OutputArea")
        page.wait_for_function(
            "document.querySelectorAll('.jp-Notebook .jp-Cell')[1]"
            "?.querySelector('.jp-OutputArea')?.innerText.includes(' matches ORIGINAL')",
            timeout=240_000)
        printed = output.inner_text()
        assert f"time {compile_id}:inference:{name}: ORIGINAL " in printed
        assert f"OK {compile_id}:inference:{name}: EDITED (unchanged) matches ORIGINAL bit for bit" in printed
        output.screenshot(path=str(shots / "open-as-cell-ran.png"))

        explorer.locator("[role=tab][data-tab=fusion]").click()
        fusion = explorer.locator("[role=tabpanel][data-tab=fusion]")
        fusion.locator(".tcx-kernel-item[data-kernel^='extern_kernels'] button").first.click()
        fusion.locator(".tcx-kernelinfo .tcx-open-cell").click()
        page.wait_for_function(f"{NOTEBOOK}.content.widgets.length === 3", timeout=120_000)
        sources = _cell_sources(page)
        assert sources[1].startswith('"""extern_kernels.') and sources[2] == source
        explorer.screenshot(path=str(shots / "open-as-cell-fusion.png"))
        assert page.errors == []
