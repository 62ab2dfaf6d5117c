"""Advice tried (issue 35 item 4): each setting a finding advises, run on the user's call
and measured against it. An `.item()` break tried with capture_scalar_outputs (fewer
graphs), a size recompile with dynamic=True (fewer recompiles), and a recompile that
dynamic=True cannot remove (a first size of 1 is specialized either way): said not to
help. One real exploration per program, shared by its tests."""

from __future__ import annotations

import html

import pytest
import torch

import tcexplore
from tcexplore.document import Document


def item_break(x):
    return x * x.sum().item()


def _part(t):
    torch._dynamo.graph_break()
    return t.sin() * 2


def size_recompiles(x):
    return _part(x).sum() + _part(x[:5]).sum() + _part(x[:3]).sum()


def size_one_first(x):
    return _part(x[:1]).sum() + _part(x).sum()


def _explored(fn):
    return tcexplore.explore(fn, torch.randn(64), time_budget_s=0.1, try_fixes=True)


@pytest.fixture(scope="module")
def item():
    return _explored(item_break).document.data


@pytest.fixture(scope="module")
def sizes():
    return _explored(size_recompiles).document.data


@pytest.fixture(scope="module")
def size_one():
    return _explored(size_one_first).document.data


def _finding(data, kind, label):
    (found,) = [f for f in data["findings"] if f["kind"] == kind and (f.get("fix") or {})
                .get("label") == label]
    return found


def test_an_item_break_tried_with_capture_scalar_outputs_has_fewer_graphs(item):
    found = _finding(item, "graph_break", "capture_scalar_outputs=True")
    assert found["fix"]["setting"] == {"kind": "config", "module": "dynamo",
                                       "name": "capture_scalar_outputs", "value": True}
    tried = found["tried"]
    assert tried["error"] is None
    before, after = tried["before"], tried["after"]
    assert after["graphs"] < before["graphs"] == item["summary"]["graphs"]
    assert after["graph_breaks"] == 0 < before["graph_breaks"]
    assert before["median_ms"] > 0 and after["median_ms"] > 0
    low, high = tried["interval"]
    assert low <= tried["ratio"] <= high
    assert after["outputs_match"] is True and tried["helped"] is True
    assert tried["sentence"].startswith("Tried: capture_scalar_outputs=True — 1 graph (was 2)")
    assert "no breaks (was 1)" in tried["sentence"] and "outputs match" in tried["sentence"]
    assert tried in item["tries"]


def test_a_try_leaves_the_setting_and_the_document_as_they_were(item):
    assert torch._dynamo.config.capture_scalar_outputs is False
    Document(item)  # the tried records validate against the schema


def test_the_report_draws_the_try(item):
    from tcexplore.render.html import render_html

    page = render_html(Document(item))
    tried = _finding(item, "graph_break", "capture_scalar_outputs=True")["tried"]
    assert html.escape(tried["sentence"]) in page
    assert "tcx-tried-helped" in page


def test_a_size_recompile_tried_with_dynamic_has_fewer_recompiles(sizes):
    found = _finding(sizes, "recompile", "dynamic=True")
    assert found["fix"]["setting"] == {"kind": "compile_kwarg", "module": None,
                                       "name": "dynamic", "value": True}
    tried = found["tried"]
    assert tried["after"]["recompiles"] < tried["before"]["recompiles"]
    assert tried["before"]["recompiles"] == sizes["summary"]["recompiles"]
    assert tried["helped"] is True and tried["sentence"].startswith("Tried: dynamic=True — ")
    # the dynamic-shape findings advise the same setting: one try, held by each
    shapes = [f for f in sizes["findings"] if f["kind"] == "dynamic_shape"]
    assert shapes and all(f["tried"] == tried for f in shapes)
    assert [t["label"] for t in sizes["tries"]].count("dynamic=True") == 1


def test_a_graph_break_call_is_not_tried_and_says_why(sizes):
    (found,) = [f for f in sizes["findings"] if f["kind"] == "graph_break"]
    assert found["fix"]["setting"] is None and "tried" not in found
    assert "change to the code" in found["fix"]["not_tried"]


def test_a_setting_that_does_not_help_is_said_so(size_one):
    """A size of 1 is specialized even under dynamic=True: the recompile stays."""
    tried = _finding(size_one, "recompile", "dynamic=True")["tried"]
    assert tried["after"]["recompiles"] == tried["before"]["recompiles"] >= 1
    assert tried["after"]["graphs"] == tried["before"]["graphs"]
    assert tried["speed"] != "faster"
    assert tried["helped"] is False
    assert tried["sentence"].startswith("Tried dynamic=True: did not help (")
    assert f"{tried['after']['recompiles']} recompile" in tried["sentence"]
