"""The notebook MIME bundle: what the extension reads, small enough to save."""

from __future__ import annotations

import copy
import json

import pytest

from tcexplore.document import validate
from tcexplore.render import notebook
from tcexplore.render.notebook import MIME_TYPE, display_document, mime_bundle, unpack


@pytest.fixture(scope="module")
def training(program_runs):
    data = program_runs["training_step"].document
    assert {"forward", "backward", "joint"} <= set(data["compiles"][0]["aot_graphs"])
    return data


def test_small_document_stays_inline_and_valid(training):
    shown = display_document(training)
    assert "packed" not in shown
    validate(shown)
    record = shown["compiles"][0]
    assert set(record["aot_graphs"]) == {"forward", "backward"}  # joint: no view draws it
    assert all("provenance" not in out for out in record["output_codes"])
    assert all(not isinstance(v, (dict, list)) for v in record["metrics"].values())
    graph, original = record["dynamo_graph"], training["compiles"][0]["dynamo_graph"]
    assert graph["text"] == "" and graph["truncated"] and graph["chars"] == len(original["text"])
    assert [n["name"] for n in graph["nodes"]] == [n["name"] for n in original["nodes"]]
    assert not any("code" in n for n in graph["nodes"])
    assert "joint" in training["compiles"][0]["aot_graphs"]  # the document itself is untouched


def test_big_document_is_packed_and_unpacks_to_what_is_shown(training, monkeypatch):
    monkeypatch.setattr(notebook, "PACK_OVER", 1000)
    shown = display_document(training)
    assert shown["compiles"] == [] and shown["packed"]["encoding"] == "gzip+base64"
    assert shown["summary"] == training["summary"]  # the sidebar labels from plain fields
    monkeypatch.setattr(notebook, "PACK_OVER", 10**12)
    assert unpack(shown) == display_document(training)


def test_bundle_has_three_forms_and_big_ones_get_the_summary_report(training, monkeypatch):
    monkeypatch.setattr(notebook, "BUNDLE_BUDGET", 10**9)  # how near 1 MB it is depends on paths
    bundle = mime_bundle(training, "<plain>")
    assert set(bundle) == {MIME_TYPE, "text/html", "text/plain"}
    assert "Summary only" not in bundle["text/html"]
    monkeypatch.setattr(notebook, "PACK_OVER", 1000)
    big = mime_bundle(copy.deepcopy(training), "<plain>")
    assert "Summary only" in big["text/html"]
    assert len(big["text/html"]) < len(bundle["text/html"])
    json.dumps(big)  # notebook-serialisable as is


def test_document_and_report_over_the_budget_together_are_packed_with_the_summary(training,
                                                                                  monkeypatch):
    """A document under PACK_OVER whose full HTML report brings the output over the budget
    (a training step's report repeats every graph and kernel) is packed too, and its HTML
    fallback is the summary pointing to the extension: what the views read is all there."""
    monkeypatch.setattr(notebook, "BUNDLE_BUDGET", 10**9)  # how near 1 MB it is depends on paths
    full = mime_bundle(training, "<plain>")
    assert "packed" not in full[MIME_TYPE]
    size = len(json.dumps(full).encode())
    # the budget counts the document's compact JSON and the HTML, as the output keeps them
    kept = len(json.dumps(full[MIME_TYPE], separators=(",", ":"), ensure_ascii=False).encode())
    monkeypatch.setattr(notebook, "BUNDLE_BUDGET", kept + len(full["text/html"].encode()))
    assert mime_bundle(training, "<plain>") == full  # just at the budget: kept whole
    monkeypatch.setattr(notebook, "BUNDLE_BUDGET", size // 2)
    light = mime_bundle(training, "<plain>")
    assert light[MIME_TYPE]["packed"] and "Summary only" in light["text/html"]
    assert len(json.dumps(light).encode()) < size // 2
    validate(light[MIME_TYPE])
    assert unpack(light[MIME_TYPE]) == display_document(training)
