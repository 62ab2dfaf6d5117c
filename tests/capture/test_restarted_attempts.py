"""A compile Dynamo restarted after it had output a graph keeps every attempt's graph:
Adam + LR scheduler (TensorifyScalarRestartAnalysis), counted as tlparse counts."""

from __future__ import annotations

from pathlib import Path

import pytest

import tcexplore
from tcexplore.document import validate
from tcexplore.render.html import render_html
from tcexplore.render.notebook import display_document

from ..conftest import TLPARSE_COUNTED, run_program

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


@pytest.mark.gpu
def test_on_cuda_the_restarted_attempt_is_kept_and_counted_as_tlparse(tmp_path):
    program = Path(__file__).parents[1] / "gpu_programs" / "adam_lr_scheduler_cuda.py"
    run = run_program(str(program), tmp_path / "adam_cuda")
    assert run.returncode == 0, run.stderr[-3000:]
    validate(run.document)
    summary = run.document["summary"]
    assert {k: summary[k] for k in TLPARSE_COUNTED} == run.tlparse_counts
    assert any("TensorifyScalarRestartAnalysis" in (a["reason"] or "")
               for c in _restarted(run.document) for a in c["restarted_attempts"])
    print("graphs:", summary["graphs"], "tlparse:", run.tlparse_counts["graphs"])
