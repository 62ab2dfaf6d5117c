"""A compile Dynamo restarted after it had output a graph keeps every attempt's graph:
Adam + LR scheduler (TensorifyScalarRestartAnalysis), counted as tlparse counts."""

from __future__ import annotations

import tcexplore
from tcexplore.render.html import render_html
from tcexplore.render.notebook import display_document

PROGRAM = "adam_lr_scheduler"


def _restarted(document):
    return [c for c in document["compiles"] if c.get("restarted_attempts")]


def test_the_restarted_compile_keeps_its_first_attempts_graph_and_the_reason(program_runs):
    run = program_runs[PROGRAM]
    (record,) = _restarted(run.document)
    (attempt,) = record["restarted_attempts"]
    assert record["attempts"] == 2 and attempt["attempt"] == 0
    assert "TensorifyScalarRestartAnalysis" in attempt["reason"]
    assert attempt["graph"]["nodes"] and record["dynamo_graph"]["nodes"]
    assert attempt["graph"]["text"] != record["dynamo_graph"]["text"]  # the float became a tensor
    assert run.document["summary"]["graphs"] == run.tlparse_counts["graphs"] == \
        sum(c["dynamo_graph"] is not None for c in run.document["compiles"]) + 1


def test_a_trace_log_keeps_the_same_attempts(program_runs):
    run = program_runs[PROGRAM]
    imported = tcexplore.load_trace(run.trace_log).data
    assert [(c["id"], [a["attempt"] for a in c["restarted_attempts"]]) for c in _restarted(imported)] == \
        [(c["id"], [a["attempt"] for a in c["restarted_attempts"]]) for c in _restarted(run.document)]


def test_report_and_notebook_output_show_the_restarted_attempt(program_runs):
    document = program_runs[PROGRAM].document
    page = render_html(document)
    assert "Attempt 0, discarded: restarted: TensorifyScalarRestartAnalysis</summary>" in page
    shown = display_document(document)
    (record,) = _restarted(shown)
    assert record["restarted_attempts"][0]["graph"]["nodes"]
    assert record["restarted_attempts"][0]["graph"]["text"] == ""  # as the last attempt's graph
