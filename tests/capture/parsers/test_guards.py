"""capture/parsers/guards.py on guard trees torch 2.13 printed (``dynamo_cpp_guards_str``)."""

from __future__ import annotations

import pytest

from tcexplore.capture.parsers.guards import parse_guards, split_guard_comments

from ...excerpts import excerpt

TREES = ["recompile_shape.dynamo_cpp_guards_str.txt", "graph_break_print.dynamo_cpp_guards_str.txt"]


def _leaves(text: str) -> list[str]:
    """The tree's leaf lines: every ``+- `` entry that is not a guard manager."""
    leaves = []
    for line in text.splitlines():
        if "+- " in line:
            entry = line.split("+- ", 1)[1]
            if not entry.split(":")[0].endswith("GuardManager"):
                leaves.append(entry)
    return leaves


@pytest.mark.parametrize("name", TREES)
def test_every_leaf_of_the_tree_is_one_guard_in_order(name):
    text = excerpt(name)
    guards = parse_guards(text)
    leaves = _leaves(text)
    assert len(guards) == len(leaves) > 5
    assert [g["type"] for g in guards] == [leaf.split(":")[0] for leaf in leaves]
    assert all(leaf.split(": ", 1)[1].startswith(g["expression"]) for g, leaf in zip(guards, leaves))


def test_a_guard_guards_the_value_of_its_closest_manager_with_the_users_line():
    guards = parse_guards(excerpt("recompile_shape.dynamo_cpp_guards_str.txt"))
    tensor = next(g for g in guards if g["type"] == "TENSOR_MATCH")
    assert tensor["source"] == "L['x']"
    assert tensor["expression"].startswith("check_tensor(L['x'], Tensor,")
    assert "size=[8, 8]" in tensor["expression"]  # the second compile's shape
    assert tensor["user_code"] == "return torch.nn.functional.softmax(x * 2, dim=-1)"
    assert tensor["user_location"] == {"file": "tests/programs/recompile_shape.py",
                                       "line": 6, "function": "f"}
    sources = {g["source"] for g in guards if g["type"] == "ID_MATCH"}
    assert {"G['torch']", "G['torch'].nn.functional"} <= sources


def test_guards_of_the_root_have_no_source_and_torchs_own_location():
    guards = parse_guards(excerpt("recompile_shape.dynamo_cpp_guards_str.txt"))
    device = next(g for g in guards if g["type"] == "DEFAULT_DEVICE")
    assert device["source"] is None and device["user_code"] is None
    assert device["user_location"]["file"].endswith("_dynamo/output_graph.py")
    state = next(g for g in guards if g["type"] == "GLOBAL_STATE")
    assert '"grad_mode":true' in state["expression"] and state["user_location"] is None


def test_a_comment_that_names_no_file_is_code():
    assert split_guard_comments("x == 1  # not a location") == ("x == 1", "not a location", None)
    assert split_guard_comments("x == 1") == ("x == 1", None, None)


def test_text_that_is_no_guard_tree_has_no_guards():
    assert parse_guards("") == [] and parse_guards("Guard latency = 119.88 us") == []
