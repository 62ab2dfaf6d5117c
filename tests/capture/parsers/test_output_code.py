"""capture/parsers/output_code.py on output code Inductor wrote: C++ on CPU (torch 2.13: a
training step's forward, a nested compile region, runtime asserts on unbacked sizes) and
Triton on an H200 (torch 2.11: a user kernel and a fused one)."""

from __future__ import annotations

import re

from tcexplore.capture.parsers.output_code import kernel_labels, output_kind, parse_output_code

from ...excerpts import excerpt

TRAIN = excerpt("tiny_train.inductor_output_code.txt")
BREAK = excerpt("graph_break_print.inductor_output_code.txt")
NESTED = excerpt("nested_compile_region.inductor_output_code.txt")
UNBACKED = excerpt("unbacked_sizes.inductor_output_code.txt")
TRITON = excerpt("user_triton_empty_like.inductor_output_code.txt")


def _by_label(code: str) -> dict:
    return {k["label"]: k for k in parse_output_code(code)["kernels"]}


def test_each_defined_kernel_is_read_with_its_source_and_where_it_is_defined():
    for code in (TRAIN, BREAK, NESTED, UNBACKED, TRITON):
        defined = re.findall(r"^(\w+) = async_compile\.\w+\(", code, re.M)
        kernels = [k for k in parse_output_code(code)["kernels"] if k["kind"] != "extern"]
        assert [k["name"] for k in kernels] == defined
        lines = code.splitlines()
        for kernel in kernels:
            assert lines[kernel["line"] - 1].startswith(f"{kernel['name']} = async_compile.")
            assert kernel["source"].strip() and kernel["source"] in code


def test_a_forward_names_its_graph_and_its_launches_carry_their_provenance_handles():
    parsed = parse_output_code(TRAIN)
    assert (parsed["aot_id"], parsed["kind"]) == ("0_forward", "forward")
    kernels = _by_label(TRAIN)
    relu = kernels["cpp_fused_relu_0"]
    assert (relu["kind"], relu["launches"], relu["handles"]) == ("cpp", 1, ["cpp_fused_relu_0:2"])
    assert relu["launch_sites"][0]["handles"] == ["cpp_fused_relu_0:2"]
    assert TRAIN.splitlines()[relu["launch_sites"][0]["line"] - 1].strip() == relu["calls"][0]


def test_extern_calls_made_twice_are_numbered_and_keep_their_handles_and_source_nodes():
    kernels = _by_label(TRAIN)
    first, second = kernels["extern_kernels.addmm#1"], kernels["extern_kernels.addmm#2"]
    assert (first["kind"], first["handles"], first["source_nodes"]) == (
        "extern", ["extern_kernels.addmm:1"], ["input_1"])
    assert (second["handles"], second["source_nodes"]) == (["extern_kernels.addmm:3"], ["input_3"])
    assert first["aten_ops"] == ["aten.t", "aten.addmm"]
    assert kernel_labels(["a", "b", "a"]) == ["a#1", "b", "a#2"]


def test_a_nested_compile_regions_kernels_are_scoped_to_it_and_each_call_is_listed():
    parsed = parse_output_code(NESTED)
    calls = parsed["subgraph_calls"]
    assert [c["subgraph"] for c in calls] == ["repeated_subgraph0"] * 4
    assert [c["call"] for c in calls] == [f"buf{i} = repeated_subgraph0(repeated_subgraph0_args)"
                                          for i in (0, 2, 4, 6)]
    kernels = _by_label(NESTED)
    assert kernels["cpp_fused_add_relu_0"]["subgraphs"] == ["repeated_subgraph0"]
    assert kernels["extern_kernels.mm"]["subgraphs"] == ["repeated_subgraph0"]
    assert kernels["cpp_fused_sum_1"]["subgraphs"] == []  # launched by call() itself


def test_runtime_asserts_are_checks_with_the_expression_torch_names():
    checks = parse_output_code(UNBACKED)["checks"]
    raised = re.findall(r"raise RuntimeError\('([^']*)'\)", UNBACKED)
    assert [c["expr"] for c in checks] == raised and "u0 >= 0" in raised
    for check in checks:
        assert UNBACKED.splitlines()[check["line"] - 1].strip() == f"if not ({check['condition']}):"
    nonzero = _by_label(UNBACKED)["torch.ops.aten.nonzero.default"]
    assert nonzero["kind"] == "extern" and nonzero["handles"] == ["torch.ops.aten.nonzero.default:1"]


def test_triton_kernels_keep_their_heuristics_kind_and_size_hints():
    parsed = parse_output_code(TRITON)
    assert parsed["kind"] == "inference"
    kernels = _by_label(TRITON)
    user, fused = kernels["add_kernel_0"], kernels["triton_poi_fused_mul_relu_0"]
    assert (user["kind"], user["triton_kind"]) == ("triton", "user")
    assert (fused["triton_kind"], fused["size_hints"]) == ("pointwise", {"x": 4096})
    assert fused["source_nodes"] == ["relu", "mul"] and fused["aten_ops"] == ["aten.relu", "aten.mul"]
    assert [k["launches"] for k in (user, fused)] == [1, 1]
    assert user["handles"] == ["add_kernel_0:1"] and fused["handles"] == ["triton_poi_fused_mul_relu_0:2"]


def test_the_graph_an_output_code_compiles_is_named_by_its_aot_id():
    assert [output_kind(x) for x in ("0_forward", "3_backward", "1_inference", None, "x")] == [
        "forward", "backward", "inference", "unknown", "unknown"]
    assert parse_output_code("") == {"aot_id": None, "kind": "unknown", "kernels": [],
                                     "subgraph_calls": [], "checks": []}
