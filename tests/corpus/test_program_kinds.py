"""Compiled autograd, nested compile regions and unbacked sizes in the corpus: what each
adds to the document, beyond the counts test_programs.py checks against tlparse."""

from __future__ import annotations

from pathlib import Path

import tcexplore


def _compiles(run):
    return {c["id"]: c for c in run.document["compiles"]}


def test_compiled_autograd_backward_has_its_own_compiles_under_the_step(program_runs):
    run = program_runs["compiled_autograd"]
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr[-2000:]
    compiles = _compiles(run)
    passes = run.document["compiled_autograd"]
    assert [p["id"] for p in passes] == sorted(p["id"] for p in passes) and passes
    for autograd in passes:
        # the pass's own graph (tlparse's !N/-/-) and its Dynamo compiles !N/F/C
        assert autograd["graph"]["nodes"] and autograd["symbols"]
        assert autograd["compiles"] and all(cid.startswith(f"!{autograd['id']}/")
                                            for cid in autograd["compiles"])
        traced = compiles[autograd["compiles"][0]]
        assert traced["compiled_autograd_id"] == autograd["id"] and traced["dynamo_graph"]
        assert traced["output_codes"] and traced["post_grad_graphs"]
        # run by the step's compile, at its loss.backward() line
        step = compiles[autograd["step"]]
        assert step["compiled_autograd_id"] is None and step["frame"]["function"] == "step"
        assert autograd["call"]["code"] == "loss.backward()"
    ids = [c["id"] for c in run.document["compiles"]]
    assert all(ids.index(p["step"]) < ids.index(p["compiles"][0]) for p in passes)


def test_nested_region_subgraph_appears_once_and_each_call_maps_to_the_wrapper(program_runs):
    run = program_runs["nested_compile_region"]
    (record,) = [c for c in run.document["compiles"] if c["output_codes"]]
    (output,) = record["output_codes"]
    graph = record["post_grad_graphs"][output["post_grad_graph"]]
    (subgraph,) = graph["subgraphs"]
    assert len(subgraph["invoked_by"]) == 4  # one block, four layers
    invokes = [n for n in graph["nodes"] if n["target"].endswith("invoke_subgraph")]
    assert [n["name"] for n in invokes] == subgraph["invoked_by"]
    lines = output["text"].splitlines()
    for node in invokes:
        assert f"= {subgraph['name']}(" in lines[node["subgraph_call"] - 1]
        assert not node.get("kernels")
    assert [c["node"] for c in output["subgraph_calls"]] == subgraph["invoked_by"]
    inside = [k for k in output["kernels"] if k.get("subgraphs") == [subgraph["name"]]]
    computed = {n for k in inside for n in k["post_grad_nodes"]}
    assert computed == {n["name"] for n in subgraph["nodes"] if n["op"] == "call_function"}
    assert output["unmapped_nodes"] == [] and run.document["summary"]["unmapped_nodes"] == 0


def test_unbacked_sizes_are_shown_with_their_lines_and_checks(program_runs):
    run = program_runs["unbacked_sizes"]
    document = run.document
    assert document["summary"]["unmapped_nodes"] == 0
    assert not [f for f in document["findings"] if f["kind"] == "unmapped"]
    (record,) = [c for c in document["compiles"] if c["output_codes"]]
    assert {s["symbol"] for s in record["symbols"] if s.get("unbacked")} >= {"u0", "u1"}
    (output,) = record["output_codes"]
    graph = record["post_grad_graphs"][output["post_grad_graph"]]
    asserts = [n for n in graph["nodes"] if "_assert_scalar" in n["target"]]
    lines = output["text"].splitlines()
    assert asserts and all(lines[n["check"] - 1].strip().startswith("if not (") for n in asserts)
    shapes = {f["shape"]["symbol"]: f["shape"] for f in document["findings"]
              if f["kind"] == "dynamic_shape"}
    assert set(shapes) == {"u0", "u1"}  # the Dynamo graph's; AOT's re-made ones are not shown
    assert "nonzero()" in shapes["u0"]["made_at"]["code"]
    assert ".item()" in shapes["u1"]["made_at"]["code"]
    for shape in shapes.values():
        kinds = {g["kind"] for g in shape["guards"]}
        assert "runtime_assert" in kinds
        assert all(g["check"]["line"] for g in shape["guards"] if g["kind"] == "runtime_assert")
    checked = [g for g in shapes["u1"]["guards"] if "torch._check" in
               Path(g["file"]).read_text().splitlines()[g["line"] - 1]]
    assert checked and checked[0]["expr"] == "u1 <= 5"


def test_unbacked_sizes_report_names_the_checks(program_runs, tmp_path):
    html = tcexplore.Document(program_runs["unbacked_sizes"].document).save(tmp_path / "r.html")
    text = html.read_text()
    assert "unbacked, made by" in text and "runtime assert: inference wrapper line" in text
