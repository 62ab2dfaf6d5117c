"""The corpus in tests/programs, captured by `tcexplore run` and checked against tlparse."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import tcexplore
from tcexplore.document import validate

from ..conftest import PROGRAMS, TLPARSE_COUNTED, tlparse_output_codes

ALL = sorted(p.stem for p in PROGRAMS.glob("*.py"))
# the programs program_runs runs ($TCEXPLORE_TEST_PROGRAMS narrows them: CI's newest-torch lane)
NAMES = [n for n in os.environ.get("TCEXPLORE_TEST_PROGRAMS", "").split(",") if n] or ALL


def _run(program_runs, name):
    """The run of program ``name``; skipped where $TCEXPLORE_TEST_PROGRAMS left it out."""
    if name not in program_runs:
        pytest.skip(f"{name} is not among $TCEXPLORE_TEST_PROGRAMS")
    return program_runs[name]


def test_corpus_is_large_enough():
    assert len(ALL) >= 12


@pytest.mark.parametrize("name", NAMES)
def test_counts_match_tlparse(program_runs, name):
    run = _run(program_runs, name)
    summary = run.document["summary"]
    ours = {key: summary[key] for key in TLPARSE_COUNTED}
    assert ours == run.tlparse_counts, run.stderr[-2000:]


@pytest.mark.parametrize("name", NAMES)
def test_document_is_valid_and_kernels_are_attributed(program_runs, name):
    document = program_runs[name].document
    validate(document)
    if document["summary"]["output_codes"]:
        unmapped = {o["aot_id"]: o["unmapped_nodes"] for c in document["compiles"]
                    for o in c["output_codes"] if o["unmapped_nodes"]}
        assert document["summary"]["unmapped_nodes"] == 0, unmapped


def _compiles(run):
    return run.document["compiles"]


def test_print_graph_break_names_line_reason_and_hint(program_runs):
    run = _run(program_runs, "graph_break_print")
    (brk,) = run.document["graph_breaks"]
    assert Path(brk["file"]).name == "graph_break_print.py" and brk["line"] == 7
    assert "print" in brk["explanation"] and brk["hints"]
    assert brk["user_stack"][-1]["code"] == 'print("side effect")'


def test_data_dependent_breaks_are_reported(program_runs):
    run = _run(program_runs, "graph_break_data_dependent")
    assert run.document["summary"]["graph_breaks"] >= 2
    reasons = " ".join(b["reason"] + (b["explanation"] or "") for b in run.document["graph_breaks"])
    assert "data-dependent" in reasons.lower() or "item" in reasons


def test_recompile_on_shape_names_the_size_guard(program_runs):
    run = _run(program_runs, "recompile_shape")
    assert run.document["summary"]["recompiles"] == 2
    reasons = [r for c in _compiles(run) for event in c["recompile_reasons"] for r in event]
    assert all("size mismatch" in r["guard"] for r in reasons)
    assert {(r["expected"], r["actual"]) for r in reasons} >= {("4", "8")}


def test_recompile_on_python_scalar(program_runs):
    run = _run(program_runs, "recompile_scalar")
    reasons = [r for c in _compiles(run) for event in c["recompile_reasons"] for r in event]
    assert reasons and "alpha" in reasons[0]["guard"]


def test_recompile_on_dtype(program_runs):
    run = _run(program_runs, "recompile_dtype")
    reasons = [r for c in _compiles(run) for event in c["recompile_reasons"] for r in event]
    assert reasons and "dtype" in reasons[0]["guard"]


def test_automatic_dynamic_creates_a_symbol_after_one_recompile(program_runs):
    run = _run(program_runs, "dynamic_automatic")
    assert run.document["summary"]["recompiles"] == 1
    symbols = [s for c in _compiles(run) for s in c["symbols"]]
    assert symbols and symbols[0]["source"] == "L['x'].size()[0]"


def test_dynamic_true_compiles_once_with_symbols(program_runs):
    run = _run(program_runs, "dynamic_true")
    assert run.document["summary"]["recompiles"] == 0
    (record,) = _compiles(run)
    shapes = [n["meta"]["shape"] for n in record["dynamo_graph"]["nodes"]
              if n["op"] == "placeholder" and n["meta"] and n["meta"]["kind"] == "tensor"]
    assert any(not dim.isdigit() for shape in shapes for dim in shape)


def test_training_step_has_forward_and_backward(program_runs):
    run = _run(program_runs, "training_step")
    kinds = [o["kind"] for c in _compiles(run) for o in c["output_codes"]]
    assert "forward" in kinds and "backward" in kinds
    record = next(c for c in _compiles(run) if c["aot_graphs"].get("backward"))
    assert record["aot_graphs"]["forward"]["nodes"]
    backward = next(o for o in record["output_codes"] if o["kind"] == "backward")
    assert any(k["kind"] == "cpp" and k["post_grad_nodes"] for k in backward["kernels"])


def test_inplace_mutation_copies_back(program_runs):
    run = _run(program_runs, "inplace_mutation")
    (record,) = [c for c in _compiles(run) if c["dynamo_graph"]]
    targets = [n["target"] for g in record["post_grad_graphs"] for n in g["nodes"]]
    assert "torch.ops.aten.copy_.default" in targets


def test_batchnorm_training_captures_forward_backward(program_runs):
    run = _run(program_runs, "batchnorm_train")
    kinds = {o["kind"] for c in _compiles(run) for o in c["output_codes"]}
    assert kinds == {"forward", "backward"}


def test_several_functions_each_get_a_frame(program_runs):
    run = _run(program_runs, "several_functions")
    functions = {c["frame"]["function"] for c in _compiles(run) if c["frame"]}
    assert {"first", "second", "third"} <= functions
    third = next(c for c in _compiles(run) if c["frame"]["function"] == "third")
    assert third["aot_graphs"] and not third["output_codes"]  # aot_eager: no Inductor code


def test_module_compile_is_captured(program_runs):
    run = _run(program_runs, "module_compile")
    (record,) = [c for c in _compiles(run) if c["dynamo_graph"]]
    assert record["frame"]["function"] == "forward"
    assert any(k["kind"] == "extern" for o in record["output_codes"] for k in o["kernels"])


def test_backend_crash_is_a_failed_compile_and_a_failed_run(program_runs):
    run = _run(program_runs, "backend_raises")
    assert run.returncode != 0
    document = run.document
    assert document["summary"]["failures"] == 1
    (failed,) = [c for c in document["compiles"] if c["status"] == "failed"]
    assert "BackendCrash" in failed["error"]["type"] + failed["error"]["message"]
    assert "this backend cannot compile" in document["error"]["message"]
    assert failed["dynamo_graph"]["nodes"]  # what was captured before the crash is kept


def test_loaded_document_round_trips(program_runs, tmp_path):
    document = tcexplore.Document(_run(program_runs, "training_step").document)
    path = document.save(tmp_path / "doc.json")
    assert tcexplore.load(path).data == document.data


def test_hf_bert_dropout_seeds_are_drawn_by_the_wrapper(program_runs):
    run = _run(program_runs, "hf_bert_train_dropout")
    outputs = {o["kind"]: o for c in _compiles(run) for o in c["output_codes"]}
    assert set(outputs) == {"forward", "backward"}
    (seeds,) = [k for k in outputs["forward"]["kernels"]
                if "inductor_seeds_default" in k["post_grad_nodes"]]
    assert seeds["kind"] == "extern" and seeds["name"] == "aten.randint.low_out"
    assert seeds["mapping"] == "provenance"


def test_hf_gpt2_second_length_compiles_dynamic_and_maps_fully(program_runs):
    run = _run(program_runs, "hf_gpt2_two_lengths")
    assert run.document["summary"]["recompiles"] == 1
    (dynamic,) = [c for c in _compiles(run) if c["symbols"]]
    assert dynamic["symbols"][0]["source"] == "L['kwargs']['input_ids'].size()[1]"
    (output,) = dynamic["output_codes"]
    assert output["unmapped_nodes"] == [] and output["kernels"]
    assert {k["mapping"] for k in output["kernels"]} == {"provenance"}


def test_warm_start_is_two_compiles_the_second_a_cache_hit_with_its_time(program_runs):
    """compile, save_cache_artifacts, reset, a fresh cache directory, load_cache_artifacts,
    compile again: it runs as without tcexplore, and the two compiles tlparse files under
    0/0 are two records, the second served by the caches."""
    run = _run(program_runs, "warm_start")
    assert run.returncode == 0, run.stderr[-3000:]
    first, second = run.document["compiles"]
    assert (first["id"], first["status"]) == ("0/0", "ok")
    assert (second["id"], second["generation"], second["status"]) == ("g2:0/0", 2, "cache_hit")
    assert second["cache_hit"]["cold"] == "0/0" and "codegen" in second["cache_hit"]["lacks"]
    (found,) = [f for f in run.document["findings"] if f["kind"] == "cache"]
    assert re.fullmatch(r"Warm start: compile g2:0/0 \(f\) hit the caches, \S+ m?s "
                        r"\(compile 0/0: \S+ m?s\)", found["title"]), found["title"]
    assert run.document["summary"]["unmapped_nodes"] == 0
    ours = [o["text"] for c in run.document["compiles"] for o in c["output_codes"]]
    assert ours == tlparse_output_codes(run.workdir / "tl_out") and len(ours) == 2


@pytest.mark.parametrize("name", NAMES)
def test_no_finding_about_caches_the_program_did_not_cause(program_runs, name):
    """Caches as the program has them: a fresh cache directory misses, which is no finding;
    only the warm start (its own caches serving its second compile) has one, and a cache
    torch itself bypassed would have its own, with torch's reason."""
    findings = program_runs[name].document["findings"]
    assert program_runs[name].document["capture"]["bypass_caches"] is False
    caches = [f for f in findings if f["kind"] == "cache"]
    warm = [f for f in caches if f["title"].startswith("Warm start: ")]
    assert len(warm) == (name == "warm_start"), caches
    assert all(f in warm or f["title"].startswith("Caches bypassed by torch") for f in caches)
