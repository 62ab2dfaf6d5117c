"""A frame torch skipped after a graph break is told as torch tells it (#43 item 4): the break
(its severity, a warning), torch skipping the frame and running it eagerly, never a red
"Compile 0/0 failed"; no failure counted; its words drawn formatted in the report."""

from __future__ import annotations

import pytest
import torch

import tcexplore
from tcexplore.render.html import render_html


def branchy(x):
    for _ in range(3):
        if x.sum() > 0:  # a data-dependent branch inside a loop: torch skips the frame
            x = x * 2
        else:
            x = x - 1
    return x


@pytest.fixture(scope="module")
def document():
    compiled = torch.compile(branchy, backend="eager")
    with tcexplore.capture() as session:
        out = compiled(torch.ones(4))
    assert torch.equal(out, torch.ones(4) * 8)  # it ran, eagerly
    return session.document


def test_the_skipped_frame_is_not_a_failed_compile(document):
    data = document.data
    (record,) = data["compiles"]
    assert record["status"] == "skipped" and record["dynamo_graph"] is None
    assert "graph break in loop" in record["error"]["message"]  # torch's words, kept
    assert data["summary"]["failures"] == 0
    assert not [f for f in data["findings"] if f["kind"] == "failed_compile"]
    assert not [f for f in data["findings"] if f["severity"] == "error"]


def test_the_break_is_told_with_its_severity_and_what_torch_did(document):
    (brk,) = document.data["graph_breaks"]
    assert brk["message"] == "Data-dependent branching"
    assert brk["skipped_frame"].startswith("Failed to handle graph break gracefully")
    (finding,) = [f for f in document.data["findings"] if f["kind"] == "graph_break"]
    assert finding["severity"] == "warning"
    assert finding["title"].endswith(": Data-dependent branching; torch could not go on after it "
                                     "(a graph break in a loop) and skipped the frame: it ran "
                                     "eagerly"), finding["title"]


def test_the_report_draws_torchs_words_formatted_not_as_a_failure(document):
    page = render_html(document)
    assert "Compile failed" not in page
    assert "torch skipped this frame after a graph break it could not handle" in page
    assert '<span class="tcx-status tcx-status-skipped">' in page or "tcx-status-skipped" in page
