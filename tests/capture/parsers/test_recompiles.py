"""capture/parsers/recompiles.py on the reasons torch 2.13 wrote for a new shape and a new
value of a specialised scalar."""

from __future__ import annotations

import json

from tcexplore.capture.parsers.recompiles import parse_recompile_reasons

from ...excerpts import excerpt

SHAPE = excerpt("recompile_shape.recompile_reasons.txt")
SCALAR = excerpt("recompile_scalar.recompile_reasons.txt")


def test_a_size_guard_names_the_compile_it_failed_and_both_sizes():
    (reason,) = parse_recompile_reasons(SHAPE)
    assert reason["failed_compile_id"] == "0/0"
    assert reason["guard"] == "tensor 'x' size mismatch at index 0. expected 4, actual 8"
    assert (reason["expected"], reason["actual"]) == ("4", "8")
    assert reason["details"] == []


def test_a_value_guard_keeps_the_users_code_and_line_apart_from_the_expression():
    (reason,) = parse_recompile_reasons(SCALAR)
    assert reason["failed_compile_id"] == "0/0"
    assert reason["guard"] == "alpha == 2"
    assert reason["user_code"] == "return x * alpha + alpha"
    assert reason["user_location"] == {"file": "tests/programs/recompile_scalar.py",
                                       "line": 6, "function": "f"}
    assert (reason["expected"], reason["actual"]) == (None, None)


def test_the_user_stack_torch_adds_below_a_reason_is_its_details():
    (reason,) = parse_recompile_reasons(SCALAR)
    assert reason["details"] == SCALAR.rstrip("\n").splitlines()[1:]
    assert reason["details"][0] == "User stack trace:"


def test_a_json_list_of_reasons_reads_as_each_of_its_strings():
    both = json.dumps([SHAPE.strip(), SCALAR.strip()])
    assert parse_recompile_reasons(both) == parse_recompile_reasons(SHAPE) + parse_recompile_reasons(SCALAR)


def test_no_payload_is_no_reason():
    assert parse_recompile_reasons(None) == [] and parse_recompile_reasons("") == []
