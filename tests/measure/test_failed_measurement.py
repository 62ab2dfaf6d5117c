"""A measurement that fails is counted and named (#43 item 1): ``summary.failures`` counts
it beside failed compiles, and the Overview names it (a finding), not only the tab that
holds what was measured. A function whose eager run raises (it checks whether it is being
compiled) compiles and runs compiled, so the capture is whole; measuring it against eager
fails."""

from __future__ import annotations

import html

import torch

import tcexplore
from tcexplore.document import validate


def compiled_only(x):
    if not torch.compiler.is_compiling():
        raise RuntimeError("this step runs compiled only")
    return x.sin() + 1


def test_a_failed_measurement_is_counted_and_named_on_the_overview(tmp_path):
    torch.compiler.reset()
    exploration = tcexplore.explore(compiled_only, torch.randn(8), time_budget_s=0.05)
    data = exploration.document.data
    validate(data)
    assert data["error"] is None and data["summary"]["graphs"] == 1, "the code ran, compiled"
    assert data["explore"]["error"]["message"] == "this step runs compiled only"
    assert data["summary"]["failures"] == 1 and exploration.summary()["failures"] == 1
    (failed,) = [f for f in data["findings"] if f["kind"] == "failed_measurement"]
    assert failed["title"] == (
        "Measuring against eager failed: RuntimeError: this step runs compiled only"
    )
    assert failed["severity"] == "warning" and failed["evidence"][0]["tab"] == "accuracy"
    assert not any(f["kind"] == "all_clear" for f in data["findings"])
    page = exploration.save(tmp_path / "failed.html").read_text()
    overview = page.split('id="tcx-overview"')[1].split("</section>")[0]
    assert html.escape(failed["title"], quote=True) in overview or failed["title"] in overview
