"""compare(): one isolated run per configuration; failures are rows, not exceptions."""

from __future__ import annotations

import html
import json

import pytest
import torch

import tcexplore
from tcexplore.document import validate
from tcexplore.findings.comparison import headline, winning_row
from tcexplore.measure.compare import row_label
from tcexplore.measure.exploration import MIME_TYPE
from tcexplore.render.comparison import BUNDLE_EMBED_LIMIT, comparison_mime_bundle, table

MODES = [None, "reduce-overhead", "max-autotune-no-cudagraphs"]
BACKENDS = ["inductor", "aot_eager", "eager"]


def gelu_mm(x, w):
    return torch.nn.functional.gelu(x @ w).sum(-1)


@pytest.fixture(scope="module")
def grid():
    torch.manual_seed(0)
    return tcexplore.compare(gelu_mm, torch.randn(8, 16), torch.randn(16, 16), modes=MODES,
                             backends=BACKENDS, dynamic=[None, True], time_budget_s=0.02)


def test_grid_has_one_row_per_configuration_each_explained(grid):
    # a configuration torch runs exactly as another (a backend ignoring `mode`) is folded
    # into that row, with torch's message (measure/same_runs.py)
    folded = [same for r in grid.rows for same in r["same_runs"]]
    assert len(grid.rows) + len(folded) == len(MODES) * len(BACKENDS) * 2
    assert all("ignoring extra kwargs" in same["reason"] for same in folded)
    assert {(r["mode"], r["backend"], r["dynamic"]) for r in grid.rows} >= {
        (m, "inductor", d) for m in MODES for d in (None, True)}
    for row in grid.rows:
        assert row["status"] in {"ok", "mismatch", "error"}
        if row["status"] != "ok":
            assert row["error"] or row["max_abs_err"] is not None, row
        else:
            assert row["compile_s"] > 0 and row["median_ms"] > 0 and row["graphs"] == 1


def test_rows_reflect_what_each_backend_generated(grid):
    for row in grid.rows:
        if row["status"] == "ok":
            assert (row["kernels"] > 0) == (row["backend"] == "inductor"), row


def test_markdown_lists_every_row(grid):
    table = grid.to_markdown()
    assert table.count("\n") == len(grid.rows) + 1
    assert "max-autotune-no-cudagraphs" in table


def test_a_failing_configuration_is_a_row_with_its_error(tmp_path):
    def broken(gm, example_inputs):
        raise RuntimeError("no kernels for you")

    comparison = tcexplore.compare(gelu_mm, torch.randn(4, 16), torch.randn(16, 16),
                                   backends=[broken, "eager"], time_budget_s=0.02)
    failed, ok = comparison.rows
    assert failed["status"] == "error" and "no kernels for you" in failed["error"]
    assert ok["status"] == "ok"
    grid = comparison._repr_mimebundle_()["text/html"]
    table = grid.split('class="tcx-comparison-table"')[1].split("</table>")[0]
    assert "no kernels for you" in table.split('class="tcx-row-error"')[1]
    speedup_chart = grid.split('aria-label="speedup per configuration"')[1].split("</svg>")[0]
    assert "failed</text>" in speedup_chart and "1× = eager" in speedup_chart
    page = comparison.save(tmp_path / "grid.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and 'id="tcx-row-1"' in page
    assert 'href="#tcx-row-1"' in page, "the grid links each row to its report below"


def test_the_grid_displays_as_a_comparison_output_whose_rows_hold_their_documents(grid):
    bundle = grid._repr_mimebundle_()
    assert set(bundle) == {MIME_TYPE, "text/html", "text/plain"}
    data = bundle[MIME_TYPE]
    validate(data)
    assert data["kind"] == "comparison" and len(data["rows"]) == len(grid.rows)
    for i, (shown, row) in enumerate(zip(data["rows"], grid.rows)):
        assert shown["label"] == row_label(row)
        assert (shown["status"], shown["speedup"]) == (row["status"], row["speedup"])
        assert shown["document"]["comparison"]["row"] == i
    assert bundle["text/plain"].startswith(f"<tcexplore.Comparison {len(grid.rows)} rows")


def test_each_rows_exploration_knows_the_grid_it_belongs_to(grid):
    for i, row in enumerate(grid.rows):
        section = row["exploration"].document.data["comparison"]
        assert section["row"] == i and len(section["rows"]) == len(grid.rows)
        assert "document" not in section["rows"][i]
    validate(grid.rows[0]["exploration"].document.data)


def test_rows_past_the_size_limit_are_left_out_with_the_reason(grid):
    data = grid.to_dict()
    whole = grid._repr_mimebundle_()
    assert sum(len(json.dumps(v)) for v in whole.values()) < BUNDLE_EMBED_LIMIT
    first = len(json.dumps(whole[MIME_TYPE]["rows"][0]["document"], separators=(",", ":"),
                           ensure_ascii=False))
    size = len(json.dumps(whole, ensure_ascii=False))  # as the bundle counts it: "×" is one
    bundle = comparison_mime_bundle(data, "grid", limit=size - first // 2)
    shown = bundle[MIME_TYPE]
    assert shown["rows"][0]["document"] is not None
    left_out = shown["rows"][-1]
    assert left_out["document"] is None and left_out["document_left_out"]["bytes"] > 0
    assert "would exceed" in left_out["document_left_out"]["reason"]
    # Said under the headline, in both views' data and in the HTML fallback.
    assert shown["notes"][-1].startswith(f"1 row not in this output ({left_out['label']}; ")
    assert html.escape(shown["notes"][-1]) in bundle["text/html"]
    validate(shown)


def test_process_isolation_runs_cold_in_a_subprocess():
    comparison = tcexplore.compare(gelu_mm, torch.randn(4, 16), torch.randn(16, 16),
                                   backends=["inductor"], isolate="process", time_budget_s=0.02)
    (row,) = comparison.rows
    assert row["status"] == "ok", row["error"]
    assert row["kernels"] >= 1
    cache = [c for record in row["exploration"].document.compiles for c in record["cache"]]
    assert all(c["result"] != "hit" for c in cache)


def test_bad_isolation_mode_is_rejected():
    with pytest.raises(ValueError, match="isolate"):
        tcexplore.compare(gelu_mm, torch.randn(4, 16), torch.randn(16, 16), isolate="threads")


@pytest.mark.parametrize("interval,said", [
    ([0.6, 0.8], "every configuration that matches eager is slower than it; the fastest: "
                 "inductor at 0.700× the speed of eager"),
    ([0.6, 1.1], "fastest that matches eager: inductor at 0.700× the speed of eager "
                 "(within the noise)"),
])
def test_the_headline_says_plainly_when_compiling_only_slows_it_down(interval, said):
    rows = [{"label": "inductor", "status": "ok", "speedup": 0.7, "speedup_interval": interval},
            {"label": "aot_eager", "status": "ok", "speedup": 0.5, "speedup_interval": [0.4, 0.6]}]
    assert headline(rows) == f"2 configurations; {said}."
    # green marks a row to pick: not one slower than eager
    assert ('class="tcx-best"' in table(rows, winning_row(rows))) == (interval[1] >= 1)
