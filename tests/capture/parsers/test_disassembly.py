"""capture/parsers/disassembly.py on the bytecode torch 2.13 wrote of a resume function
(``*_ORIGINAL_BYTECODE`` / ``*_MODIFIED_BYTECODE`` artifacts, Python 3.11's layout); each
Python's layout is read in tests/capture/test_bytecode.py."""

from __future__ import annotations

import re

import pytest

from tcexplore.capture.parsers.disassembly import parse_bytecode, plain_name, pushes_null

from ...excerpts import excerpt

ORIGINAL = excerpt("graph_break_print.original_bytecode.txt")
MODIFIED = excerpt("graph_break_print.modified_bytecode.txt")


@pytest.mark.parametrize("text", [ORIGINAL, MODIFIED], ids=["original", "modified"])
def test_every_instruction_is_read_with_its_offset_in_order(text):
    instructions = parse_bytecode(text)
    listed = [line for line in text.splitlines() if re.search(r"\b\d+ [A-Z][A-Z_]+", line)]
    assert len(instructions) == len(listed) > 10
    offsets = [i["offset"] for i in instructions]
    assert offsets == sorted(offsets) and offsets[0] == 0
    assert [i["opname"] for i in instructions] == [re.search(r"\d+ ([A-Z][A-Z_]+)", line)[1]
                                                   for line in listed]


def test_the_resumed_functions_lines_and_jump_targets():
    instructions = parse_bytecode(ORIGINAL)
    starts = [i["line"] for i in instructions if i["starts_line"]]
    assert starts[0] == 7 and starts == sorted(starts)  # resumed at the break's line
    jump = next(i for i in instructions if i["opname"] == "JUMP_FORWARD")
    target = next(i for i in instructions if i["label"] == jump["target"])
    assert target["offset"] == int(jump["target"]) == 84


def test_a_global_call_is_read_by_name_with_the_null_python_311_pushes_before_it():
    instructions = parse_bytecode(ORIGINAL)
    call = next(i for i in instructions if i["opname"] == "LOAD_GLOBAL" and "print" in i["argrepr"])
    assert (plain_name(call["argrepr"]), pushes_null(call)) == ("print", "before")
    graph = parse_bytecode(MODIFIED)[1]
    assert plain_name(graph["argrepr"]).startswith("__compiled_fn_")
