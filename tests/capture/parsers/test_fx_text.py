"""capture/parsers/fx_text.py on graphs torch 2.13 printed: Dynamo's, the AOT forward and
backward and the post-grad graph of a training step, a nested compile region's, and a
checkpointed region's."""

from __future__ import annotations

import re

import pytest

from tcexplore.capture.parsers.fx_text import INVOKE_SUBGRAPH, parse_annotation, parse_graph

from ...excerpts import excerpt

GRAPHS = ["tiny_train.dynamo_output_graph.txt", "tiny_train.aot_forward_graph.txt",
          "tiny_train.aot_backward_graph.txt", "tiny_train.inductor_post_grad_graph.txt",
          "nested_compile_region.dynamo_output_graph.txt", "checkpointed.aot_forward_graph.txt",
          "graph_break_print.dynamo_output_graph.txt"]


def _nodes(name: str) -> dict:
    return {n["name"]: n for n in parse_graph(excerpt(name))["nodes"]}


def _forward(text: str) -> list[str]:
    """The top-level forward's lines, up to a nested class."""
    return text.split("\n    class ")[0].splitlines()


@pytest.mark.parametrize("name", GRAPHS)
def test_each_statement_of_the_forward_is_a_node_linked_both_ways(name):
    text = excerpt(name)
    graph = parse_graph(text)
    nodes = {n["name"]: n for n in graph["nodes"]}
    assigned = [m[1] for line in _forward(text)
                if (m := re.match(r"^        (\w+)(?:: \"[^\"]*\")? = ", line))]
    aliases = [line.split(" = ")[0].strip() for line in _forward(text)
               if re.match(r"^        \w+ = [A-Z]\w*$", line)]  # Dynamo's `l_x_ = L_x_`
    computed = [n["name"] for n in graph["nodes"] if n["op"] not in ("placeholder", "output")]
    assert computed == [a for a in assigned if a not in aliases]
    assert graph["nodes"][-1]["op"] == "output" and not graph["nodes_truncated"]
    for node in graph["nodes"]:
        assert all(node["name"] in nodes[arg]["users"] for arg in node["args"])
        assert all(node["name"] in nodes[user]["args"] for user in node["users"])


def test_placeholders_come_from_the_signature_with_their_tensor_metadata():
    nodes = _nodes("tiny_train.aot_backward_graph.txt")  # a signature over several lines
    placeholders = [n for n in nodes.values() if n["op"] == "placeholder"]
    assert [p["name"] for p in placeholders] == ["primals_3", "primals_4", "relu", "tangents_1"]
    assert placeholders[0]["meta"] == {"kind": "tensor", "dtype": "float32", "shape": ["2", "4"],
                                       "stride": ["4", "1"], "device": "cpu"}
    assert placeholders[-1]["meta"]["shape"] == []  # a scalar: f32[][]
    le = nodes["le"]
    assert le["meta"]["dtype"] == "bool" and le["target"] == "torch.ops.aten.le.Scalar"


def test_a_multi_line_return_lists_the_returned_nodes():
    nodes = _nodes("tiny_train.aot_backward_graph.txt")
    assert nodes["output"]["args"] == ["mm_1", "view_1", "mm", "view"]  # `None` is no node


def test_an_op_named_like_a_node_is_not_read_as_that_node():
    nodes = _nodes("tiny_train.aot_backward_graph.txt")
    # `view_1 = torch.ops.aten.view.default(sum_3, [8])`, and a node is named `view`
    assert nodes["view_1"]["args"] == ["sum_3"]
    # keyword arguments name no node: `full.default([], 0.0, dtype = torch.float32, ...)`
    assert nodes["full_default"]["args"] == []


def test_dynamos_renamed_inputs_are_one_node_each_and_calls_are_classified():
    nodes = _nodes("tiny_train.dynamo_output_graph.txt")
    assert "l_x_" in nodes and "L_x_" not in nodes and nodes["l_x_"]["op"] == "placeholder"
    assert nodes["input_1"]["target"] == "torch._C._nn.linear"
    assert (nodes["loss"]["op"], nodes["loss"]["target"]) == ("call_method", "sum")
    assert nodes["input_1"]["source"] == {"file": "/programs/tiny_train.py", "line": 9,
                                          "function": "step", "code": "loss = model(x).sum()"}


def test_a_checkpointed_regions_nodes_keep_their_user_line():
    nodes = _nodes("checkpointed.aot_forward_graph.txt")
    assert {nodes[n]["source"]["line"] for n in ("mm", "relu", "sin")} == {8}
    assert nodes["mm"]["source"]["function"] == "block"
    assert nodes["sum_1"]["source"]["line"] == 13


def test_a_nested_compile_regions_subgraph_is_read_once_with_the_nodes_invoking_it():
    graph = parse_graph(excerpt("nested_compile_region.dynamo_output_graph.txt"))
    invokers = [n["name"] for n in graph["nodes"] if n["target"] == INVOKE_SUBGRAPH]
    assert len(invokers) == 4
    (subgraph,) = graph["subgraphs"]
    assert (subgraph["name"], subgraph["invoked_by"]) == ("subgraph_0", invokers)
    inner = {n["name"]: n for n in subgraph["nodes"]}
    assert inner["matmul"]["target"] == "operator.matmul" and inner["add"]["target"] == "operator.add"
    assert inner["relu"]["source"]["function"] == "block"
    assert inner["output"]["args"] == ["add"]


def test_annotations():
    assert parse_annotation("Sym(s77)") == {"kind": "symint", "expr": "s77"}
    assert parse_annotation("f32[s77, 8][8, 1]cuda:0")["device"] == "cuda:0"
    assert parse_annotation("i64[5][1]cpu")["dtype"] == "int64"
    assert parse_annotation(None) is None
    assert parse_annotation("whatever")["kind"] == "other"
