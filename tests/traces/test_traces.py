"""TORCH_TRACE logs read back: the document of the log equals the live capture's of the same run."""

from __future__ import annotations

import gzip
import html
import json
import os
import subprocess
import sys

import pytest
import torch

import tcexplore
from tcexplore.document import SUMMARY_KEYS, validate
from tcexplore.findings.unmapped import NO_PROVENANCE
from tcexplore.render.html import render_html

from ..conftest import PROGRAMS, TLPARSE_COUNTED
from ..inductor_cache import fresh_inductor_cache

NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
LIVE_ONLY = ("cudagraphs", "perf_hints", "warnings")  # log messages TORCH_TRACE does not record
OUTPUT_LIVE_ONLY = ("custom_ops",)  # where an op was registered: asked of torch, not in a log
HOOK_ONLY = ("bytecode",)  # a log has the resume functions' bytecode only (compared below)


@pytest.fixture(scope="module")
def imported(program_runs):
    return {name: tcexplore.load_trace(run.trace_log).data for name, run in program_runs.items()}


@pytest.mark.parametrize("name", NAMES)
def test_imported_counts_equal_the_live_capture_and_tlparse(program_runs, imported, name):
    run, document = program_runs[name], imported[name]
    live = run.document["summary"]
    assert {k: document["summary"][k] for k in SUMMARY_KEYS} == {k: live[k] for k in SUMMARY_KEYS}
    assert {k: document["summary"][k] for k in TLPARSE_COUNTED} == run.tlparse_counts


@pytest.mark.parametrize("name", NAMES)
def test_imported_compiles_and_breaks_are_the_live_ones(program_runs, imported, name):
    """One code path: the same events through the same Assembler give the same records."""
    live, document = program_runs[name].document, imported[name]
    def strip(c):
        kept = {k: v for k, v in c.items() if k not in LIVE_ONLY + HOOK_ONLY}
        kept["output_codes"] = [{k: v for k, v in o.items() if k not in OUTPUT_LIVE_ONLY}
                                for o in c.get("output_codes") or []]
        return kept

    assert [strip(c) for c in document["compiles"]] == [strip(c) for c in live["compiles"]]
    assert document["graph_breaks"] == live["graph_breaks"]
    assert document.get("compiled_autograd") == live.get("compiled_autograd")


def test_a_log_holds_the_resume_functions_bytecode_as_the_hook_heard_it(program_runs, imported):
    """torch's *_ORIGINAL/_MODIFIED_BYTECODE artifacts, read later, give the resume
    functions' sections; the other frames' bytecode is marked unavailable."""
    live = {c["id"]: c for c in program_runs["graph_break_two_callers"].document["compiles"]}
    document = imported["graph_break_two_callers"]
    assert "compiles[].bytecode" in {u["field"] for u in document["capture"]["unavailable"]}
    resumes = [r for r in document["compiles"]
               if r["frame"]["function"].startswith("torch_dynamo_resume_in_")]
    assert all(r["bytecode"] is None for r in document["compiles"] if r not in resumes)
    if torch.__version__ >= "2.13":  # torch 2.13 writes the artifacts; older ones may not
        assert all(r["bytecode"] is not None for r in resumes)
    for record in (r for r in resumes if r["bytecode"] is not None):
        section, heard = record["bytecode"], live[record["id"]]["bytecode"]
        assert section["source"] == "trace_artifact"
        for part in ("original", "modified"):
            assert [(i["opname"], i["argrepr"], i["line"]) for i in section[part]["instructions"]] \
                == [(i["opname"], i["argrepr"], i["line"]) for i in heard[part]["instructions"]]
        assert section["reading"] == heard["reading"]
        assert record["resume_of"] == live[record["id"]]["resume_of"]


def test_an_imported_document_says_what_a_trace_cannot_hold(imported):
    document = imported["training_step"]
    validate(document)
    capture = document["capture"]
    assert capture["source"] == "trace" and capture["partial"] is None
    missing = {u["field"] for u in capture["unavailable"]}
    assert {"compiles[].cudagraphs", "compiles[].perf_hints", "compiles[].warnings", "error",
            "environment.platform", "environment.gpus"} <= missing
    assert document["environment"]["torch"] == torch.__version__  # the log states it
    assert document["distributed"] is None  # not a distributed run: no rank in the log
    assert capture["log"] == {"lines": capture["log"]["lines"], "unparsed_lines": 0,
                              "bad_envelopes": 0, "payload_mismatches": 0,
                              "other_rank_events": 0}
    page = render_html(document)
    assert "Not available in this document" in page and "compiles[].cudagraphs" in page


def test_a_gzipped_log_reads_the_same(program_runs, imported, tmp_path):
    packed = tmp_path / "trace.log.gz"
    packed.write_bytes(gzip.compress(program_runs["training_step"].trace_log.read_bytes()))
    document = tcexplore.load_trace(packed).data
    assert document["summary"] == imported["training_step"]["summary"]
    assert document["capture"]["compression"] == "gzip"


def test_a_log_cut_inside_an_event_is_a_marked_partial_document(program_runs, tmp_path):
    text = program_runs["training_step"].trace_log.read_bytes()
    code_at = text.index(b'"inductor_output_code"')
    cut = tmp_path / "cut.log"
    cut.write_bytes(text[: code_at + text[code_at:].index(b"\n\t") + 400])  # into its payload
    document = tcexplore.load_trace(cut).data
    validate(document)
    assert "ends inside the payload" in document["capture"]["partial"]
    assert "inductor_output_code" in document["capture"]["partial"]
    assert document["summary"]["output_codes"] == 0  # the cut output code is left out
    assert document["summary"]["graphs"] >= 1  # what came before it is kept
    assert "Partial document" in render_html(document)


def test_a_gzip_stream_cut_short_is_partial(program_runs, tmp_path):
    packed = gzip.compress(program_runs["training_step"].trace_log.read_bytes())
    cut = tmp_path / "cut.log.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    document = tcexplore.load_trace(cut).data
    assert "gzip stream ends early" in document["capture"]["partial"]
    assert document["compiles"]


def test_a_corrupted_payload_is_counted_not_fatal(program_runs, tmp_path):
    text = program_runs["training_step"].trace_log.read_bytes()
    at = text.index(b"\n\t", text.index(b'"dynamo_output_graph"')) + 5
    bad = tmp_path / "bad.log"
    bad.write_bytes(text[:at] + b"X" + text[at + 1:])
    document = tcexplore.load_trace(bad).data
    assert document["capture"]["log"]["payload_mismatches"] == 1
    assert document["capture"]["partial"] is None


@pytest.mark.parametrize("content, message", [
    (b"", "is empty"),
    (b"hello\nworld\n", "not a TORCH_TRACE log"),
    (b"\x28\xb5\x2f\xfd" + b"\0" * 20, "zstd -d"),
])
def test_unreadable_input_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "input.log"
    path.write_bytes(content)
    with pytest.raises(tcexplore.TraceError, match=message):
        tcexplore.load_trace(path)


def test_import_cli_writes_the_document_and_report(program_runs, imported, tmp_path):
    log = program_runs["graph_break_print"].trace_log
    proc = subprocess.run([sys.executable, "-m", "tcexplore", "import", str(log.parent), "--json",
                           str(tmp_path / "doc.json"), "--html", str(tmp_path / "doc.html")],
                          check=False, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    document = json.loads((tmp_path / "doc.json").read_text())
    assert document["summary"] == imported["graph_break_print"]["summary"]
    assert "TORCH_TRACE log" in (tmp_path / "doc.html").read_text()


def test_import_cli_names_the_problem_with_its_input(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tcexplore", "import", str(tmp_path),
                           "--json", str(tmp_path / "x.json")],
                          check=False, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "holds no TORCH_TRACE log" in proc.stderr


_MATMUL_RELU = """
import torch
f = torch.compile(lambda x, w: torch.relu(x @ w).sin() + 1)
f(torch.randn(8, 8), torch.randn(8, 8))
"""


@pytest.mark.parametrize("provenance", ["0", "1"])
def test_nodes_unmapped_for_want_of_torchs_mapping_say_so(tmp_path, provenance):
    """A plain TORCH_TRACE run has no kernel -> node mapping on CPU (C++ kernels name no
    nodes), so its nodes are unmapped, and the report says why; INDUCTOR_PROVENANCE=1 maps
    them all."""
    env = {k: v for k, v in os.environ.items() if k != "TORCH_COMPILE_DEBUG"}
    env.update(TORCH_TRACE=str(tmp_path / "trace"), INDUCTOR_PROVENANCE=provenance,
               TORCHINDUCTOR_CACHE_DIR=str(fresh_inductor_cache(tmp_path / "cache")))
    subprocess.run([sys.executable, "-c", _MATMUL_RELU], env=env, check=True, timeout=300)
    data = tcexplore.load_trace(tmp_path / "trace").data
    (output,) = data["compiles"][0]["output_codes"]
    page = render_html(data)
    if provenance == "1":
        assert output["provenance"] and data["summary"]["unmapped_nodes"] == 0
        assert NO_PROVENANCE not in page
    else:
        assert output["provenance"] is None and data["summary"]["unmapped_nodes"] > 0
        assert html.escape(NO_PROVENANCE) in page
        assert "INDUCTOR_PROVENANCE=1 records it" in page
