"""Advice never names what the program already does (#43 item 3): a setting in force for that
compile (a ``%%tcompile --dynamic`` cell, compare()'s dynamic=True row) is neither a finding's
fix nor named by its advice; a recompile's advice follows the kind of guard that failed (a
``requires_grad mismatch`` is not a size to make dynamic); no title or advice names a
function Dynamo generated (memory advice names the user's function, not its resume
function). Real compiles, aot_eager where Inductor adds nothing to the case."""

from __future__ import annotations

import re

import pytest
import torch

import tcexplore

pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")

from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402

from tcexplore.measure.exploration import MIME_TYPE  # noqa: E402

GENERATED = re.compile(r"torch_dynamo_resume_in_|__resume_at_|__compiled_fn_")


def _said(finding: dict) -> str:
    return " ".join(str(t) for t in (finding["title"], finding["advice"], *finding["details"]))


def _dynamic_fixes(document: dict) -> list[dict]:
    return [f for f in document["findings"]
            if (f.get("fix") or {}).get("label") == "dynamic=True" or "dynamic=True" in _said(f)]


@pytest.fixture(scope="module")
def dynamic_cell():
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "tcexplore")
    shell.user_ns.update(x=torch.randn(16, 4))
    with capture_output() as captured:
        result = shell.run_cell("%%tcompile --dynamic --backend aot_eager --no-eager\n"
                                "y = x.sin()\nif x.size(0) > 100:\n    y = y * 2\ny.sum()")
    assert result.error_in_exec is None, result.error_in_exec
    (bundle,) = [o.data for o in captured.outputs if MIME_TYPE in o.data]
    return bundle[MIME_TYPE]


def test_a_dynamic_cell_is_not_told_to_compile_dynamic(dynamic_cell):
    assert dynamic_cell["explore"]["compile_kwargs"]["dynamic"] is True
    (shape,) = [f for f in dynamic_cell["findings"]
                if f["kind"] == "dynamic_shape" and f["title"].startswith("x.size(0)")]
    assert not _dynamic_fixes(dynamic_cell), _dynamic_fixes(dynamic_cell)
    assert shape["fix"] is None or shape["fix"]["setting"] is None
    assert "torch._check" in shape["advice"]  # what the `if` line calls for


def test_compares_dynamic_row_is_not_told_to_compile_dynamic():
    def f(x):
        return (x.cos() + x.size(0)).sum()

    grid = tcexplore.compare(f, torch.randn(12, 3), backends=["aot_eager"], dynamic=[None, True],
                             time_budget_s=0.02)
    rows = {row["dynamic"]: row["exploration"].document.data for row in grid.rows}
    assert rows[True]["explore"]["compile_kwargs"]["dynamic"] is True
    assert [f for f in rows[True]["findings"] if f["kind"] == "dynamic_shape"]
    assert not _dynamic_fixes(rows[True]), _dynamic_fixes(rows[True])


def test_a_requires_grad_recompile_is_not_advised_dynamic_shapes():
    def f(x):
        return x * 2

    compiled = torch.compile(f, backend="eager")
    with tcexplore.capture() as session:
        compiled(torch.randn(4, requires_grad=True))
        compiled(torch.randn(4))
    (recompile,) = [f for f in session.document.data["findings"] if f["kind"] == "recompile"]
    assert "requires_grad mismatch" in recompile["title"]
    assert recompile["fix"]["setting"] is None
    assert "dynamic=True" not in recompile["advice"] and "mark_dynamic" not in recompile["advice"]
    assert "requires_grad" in recompile["advice"]


class TwoHalves(torch.nn.Module):
    """A forward that breaks in the middle: its second half runs in a resume function."""

    def __init__(self):
        super().__init__()
        self.a, self.b = torch.nn.Linear(512, 512), torch.nn.Linear(512, 512)

    def forward(self, x):
        h = self.a(x).relu()
        torch._dynamo.graph_break()
        h = self.b(h).tanh()
        return (self.b(h).sigmoid() * h).sum()


def test_memory_advice_names_the_users_function_not_a_resume_function():
    torch.manual_seed(0)
    model = TwoHalves()
    exploration = tcexplore.explore(lambda x: model(x).backward(), torch.randn(4096, 512),
                                    backend="aot_eager", measure_timing=False)
    data = exploration.document.data
    assert any(GENERATED.search(str((c.get("frame") or {}).get("function")))
               for c in data["compiles"]), "the forward no longer resumes after its break"
    (memory,) = [f for f in data["findings"] if f["kind"] == "memory"]
    assert "checkpointing" in memory["advice"] and "forward" in memory["advice"]
    for f in data["findings"]:
        assert not GENERATED.search(_said(f)), _said(f)


def test_a_fix_tried_in_the_document_is_not_offered_to_try_again():
    """tests/fixtures/tried: a real exploration's findings, explored with try_fixes=True."""
    import json
    from pathlib import Path

    from tcexplore.measure.try_fixes import setting_fixes

    saved = json.loads((Path(__file__).parents[1] / "fixtures" / "tried" / "findings.json").read_text())
    tried = {f["tried"]["label"] for f in saved["findings"] if f.get("tried")}
    assert tried, "the fixture holds no try"
    assert not {fix["label"] for fix in setting_fixes(saved)} & tried


def test_a_warm_start_is_offered_only_where_a_cache_serves_the_compile():
    """A long compile that consulted Inductor's caches (a miss) is told its next run starts
    warm, and may try it; one that consulted none (eager, aot_eager: the caches serve the
    inductor backend only; a real explore() records no cache entry for them) is told
    neither, and a warm start the document measured (a hit) is in force."""
    from tcexplore.findings import compile_time, fixes

    eager = tcexplore.explore(lambda x: x.sin().sum(), torch.randn(4), backend="aot_eager",
                              measure_timing=False).document.data
    assert all(c["cache"] == [] for c in eager["compiles"])
    long = [{"name": "entire_frame_compile", "duration_ms": 6000.0, "children": []}]

    def found(cache):
        data = {**eager, "compiles": [{**c, "phases": long, "cache": cache}
                                      for c in eager["compiles"]]}
        (f,) = compile_time.find(data)
        return data, f

    _, unserved = found([])
    assert unserved["fix"] is None and unserved["advice"] is None
    assert compile_time.UNSERVED in unserved["details"]
    data, missed = found([{"result": "miss", "key": "k"}])
    assert missed["fix"] == fixes.WARM_START and "starts warm" in missed["advice"]
    assert not fixes.in_force(data, fixes.WARM_START)
    assert fixes.in_force({**data, "compiles": [{"cache": [{"result": "hit"}]}]}, fixes.WARM_START)
