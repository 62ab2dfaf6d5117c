"""The report's measurement, source-label, compile-time and graph sections, from real runs."""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path

import pytest
import torch

import tcexplore
from tcexplore.findings import decide
from tcexplore.render import graph_svg
from tcexplore.render.html import render_html

from ..measure.test_explore import layer

HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def diverging():
    """Inductor with a planted bug: every `sin` is off by 1e-2."""
    from torch._inductor.compile_fx import compile_fx

    from ..measure.test_explore import nudging_backend

    def nudged_inductor(gm, example_inputs):
        nudging_backend(gm, example_inputs)
        return compile_fx(gm, example_inputs)

    torch.manual_seed(0)
    torch.compiler.reset()
    # cold: the divergence names the kernel Inductor's codegen fused the node into
    return tcexplore.explore(layer, torch.randn(16, 8), torch.randn(16, 8),
                             backend=nudged_inductor, time_budget_s=0.05,
                             bypass_caches=True).document.data


def test_eager_vs_compiled_shows_timing_accuracy_and_the_first_divergence(diverging):
    page = render_html(diverging)
    assert 'id="tcx-measurements"' in page
    for table in ("tcx-timing-table", "tcx-timing-summary", "tcx-accuracy-table",
                  "tcx-divergence-table", "tcx-inputs-table"):
        assert f'class="{table}"' in page, table
    assert "Compiled outputs differ from eager; first at node a (" in page
    divergence = page.split('class="tcx-divergence-table"')[1].split("</table>")[0]
    assert "<code>a</code>" in divergence and "a = x.sin()" in divergence
    assert "cpp_fused" in divergence, "the kernel the diverging node was fused into"
    median = f"{diverging['timing']['eager']['median_ms']:.4g}"
    assert f"<td>{median}</td>" in page


def test_compile_time_by_phase_has_a_row_per_compile(diverging):
    page = render_html(diverging)
    table = page.split('class="tcx-compile-time-table"')[1].split("</table>")[0]
    assert table.count("<tr>") == 1 + len(diverging["compiles"])
    pending, total = list(diverging["compiles"][0]["phases"]), None
    while total is None:  # the first compile of a process has a "dynamo" phase around it
        phase = pending.pop(0)
        total = phase["duration_ms"] if phase["name"] == "entire_frame_compile" else None
        pending.extend(phase["children"])
    assert f"<td>{total:.1f}</td>" in table


def test_labelled_files_read_as_cells_everywhere(diverging):
    test_file = str(Path(__file__).parents[1].joinpath("measure/test_explore.py"))
    data = copy.deepcopy(diverging)
    data["explore"]["source_labels"] = {test_file: "cell [7]"}
    page = render_html(data)
    assert test_file not in page, "not in tables, graph code comments or tracebacks either"
    assert "cell [7], line" in page
    assert test_file in render_html(diverging), "unlabelled documents keep file names"


def _hostile(data):
    data = copy.deepcopy(data)
    node = next(n for n in data["compiles"][0]["dynamo_graph"]["nodes"] if n.get("source"))
    node["target"] = HOSTILE
    node["source"]["code"] = HOSTILE
    return data


@pytest.mark.skipif(graph_svg.shutil.which("dot") is None, reason="Graphviz's dot is missing")
def test_dynamo_graph_is_drawn_as_escaped_svg(diverging):
    page = render_html(_hostile(diverging))
    svg = page.split('<div class="tcx-graph-svg">')[1].split("</svg>")[0]
    assert svg.startswith("<svg") and "<script" not in svg and "href" not in svg
    assert HOSTILE not in page and "<img" not in page
    assert html.escape(HOSTILE, quote=False) in svg
    assert 'class="tcx-graph-table"' in page, "the node table stays, under the picture"


def test_without_dot_the_graph_is_a_table(diverging, monkeypatch):
    monkeypatch.setattr(graph_svg.shutil, "which", lambda name: None)
    page = render_html(_hostile(diverging))
    assert 'class="tcx-graph-svg"' not in page and 'class="tcx-graph-table"' in page
    assert HOSTILE not in page and html.escape(HOSTILE) in page


def test_too_big_a_graph_is_not_drawn(diverging):
    graph = copy.deepcopy(diverging["compiles"][0]["dynamo_graph"])
    graph["nodes"] = graph["nodes"] * (graph_svg.MAX_SVG_NODES // len(graph["nodes"]) + 1)
    assert graph_svg.dynamo_graph_svg(graph) is None


def _timing_section(page: str) -> str:
    return page.split('class="tcx-sub tcx-timing"')[1].split("</details>")[0]


def test_timing_draws_the_medians_to_scale_on_an_axis_from_zero(diverging):
    data = copy.deepcopy(diverging)
    data["timing"]["compiled"]["max_ms"] = 1000 * data["timing"]["compiled"]["median_ms"]
    section = _timing_section(render_html(data))
    chart = section.split('<svg class="tcx-axis-chart"')[1].split("</svg>")[0]
    assert ">0</text>" in chart and "time per call (" in chart
    widths = [float(w) for w in re.findall(r'<rect x="90" y="\d+" width="([\d.]+)"', chart)]
    medians = [data["timing"][side]["median_ms"] for side in ("eager", "compiled")]
    assert widths[0] / widths[1] == pytest.approx(medians[0] / medians[1], rel=0.01)
    assert "max " in chart, "the outlier max is marked past the axis, not drawn to scale"


def test_a_noisy_timing_is_a_warning_that_says_what_to_do(diverging):
    data = copy.deepcopy(diverging)
    eager, compiled = data["timing"]["eager"], data["timing"]["compiled"]
    eager["iqr_ms"], eager["noisy"] = 0.01 * eager["median_ms"], False
    compiled["iqr_ms"], compiled["noisy"] = 6 * compiled["median_ms"], True
    data["timing"]["noisy"] = True
    section = _timing_section(render_html(decide(data)))  # the report draws what is decided
    verdict = section.split('class="tcx-findings tcx-timing-verdict">')[1].split("</p>")[0]
    assert "warning</span>" in verdict and "tcx-status-ok" not in verdict
    assert "Noisy: compiled&#x27;s IQR is" in section and "(600%)" in section
    assert "--time-budget" in section and "a quieter machine" in section
