"""Guard time (#40 item 4): a Hugging Face model's forward (a tiny Llama made from its config,
nothing downloaded), profiled by explore(): each compiled frame's guards per entry in the
steady state (Dynamo's own cache-lookup range) beside torch's cold figure from the compile
(compilation_metrics.guard_latency_us), both drawn by the report; where guards are a large
share of an overhead-bound frame, the advice names torch's guard_filter_fn helpers with
their risk and offers the narrowest as a setting to try."""

from __future__ import annotations

import html

import pytest
import torch

import tcexplore
from tcexplore.findings.guard_cost import GUARD_SHARE, HELPER, guard_rows
from tcexplore.render.html import render_html

transformers = pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def explored(tmp_path_factory):
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=64,
    )
    model = transformers.LlamaForCausalLM(config).eval()
    ids = torch.randint(0, 64, (1, 8))

    def forward(ids):
        with torch.no_grad():
            return model(ids, use_cache=False).logits

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        return tcexplore.explore(forward, ids, profile=True, time_budget_s=0.2).document.data


def test_each_frame_has_its_steady_guard_time_beside_torchs_cold_one(explored):
    run = explored["profile"]["run"]
    forward = [f for f in run["frames"] if not f["backward"]]
    assert forward
    for row in forward:
        record = explored["compiles"][row["compile"]]
        assert row["guard_latency_us"] == record["metrics"]["guard_latency_us"] > 0
        assert row["guard_us"] is not None and row["guard_us"] > 0
        # torch's figure is one check after flushing the CPU cache: an upper bound on a quiet
        # machine; on a busy one each steady check may wait for a core as well
        assert row["guard_us"] < 1.5 * row["guard_latency_us"], row
        split = row["outside_split"]
        assert set(split) == {"dynamo_us", "aot_us", "wrapper_us", "launch_us"}
    page = render_html(explored)
    assert "guards per entry" in page and "cold (torch)" in page


def test_guards_over_a_quarter_of_an_overhead_bound_frame_are_advised_against(explored):
    run = explored["profile"]["run"]
    heavy = [row for row, part in guard_rows(run) if part >= GUARD_SHARE]
    bound = explored["profile"]["step"]["verdict"] == "overhead-bound"
    found = [f for f in explored["findings"] if f["kind"] == "guard_cost"]
    assert len(found) == (len(heavy) if bound else 0)
    for f in found:
        assert HELPER in f["advice"] and "unsafe" in f["advice"]
        assert f["fix"]["setting"] == {
            "kind": "guard_filter", "module": None, "name": "guard_filter_fn", "value": HELPER
        }
        assert html.escape(f["title"]) in render_html(explored)
