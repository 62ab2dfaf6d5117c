"""capture/parsers/graph_breaks.py on the reason torch 2.13 wrote for a ``print`` break."""

from __future__ import annotations

from tcexplore.capture.parsers.graph_breaks import GENERIC_PREFIX, parse_graph_break, split_reason

from ...excerpts import excerpt

PRINT_BREAK = excerpt("graph_break_print.dynamo_graph_break_reason.txt")


def test_a_print_break_is_read_at_the_users_line_with_torchs_words():
    brk = parse_graph_break(PRINT_BREAK)
    assert (brk["file"], brk["line"]) == ("/repo/tests/programs/graph_break_print.py", 7)
    assert brk["generic"].startswith(GENERIC_PREFIX)
    assert brk["message"] == "Failed to trace builtin operator"
    assert brk["explanation"].startswith("Dynamo does not know how to trace builtin operator `print`")
    assert len(brk["hints"]) == 3 and brk["hints"][0].startswith("Avoid calling builtin `print`")
    assert brk["developer_context"].startswith("builtin print")
    assert brk["link"].startswith("https://") and brk["link"].endswith(".html")


def test_the_reason_is_kept_whole_and_split_once():
    brk = parse_graph_break(PRINT_BREAK)
    assert brk["reason"].splitlines()[:2] == [brk["generic"], brk["message"]]
    fields = ("message", "generic", "details", "skipped_frame")
    assert split_reason(brk["reason"]) == {k: brk[k] for k in fields}
    # the explanation, hints, context and link are fields of their own, not details; a
    # break torch handled names no skipped frame
    assert brk["details"] is None and brk["skipped_frame"] is None


def test_the_user_stack_ends_at_the_break_and_torchs_own_traceback_is_dropped():
    brk = parse_graph_break(PRINT_BREAK)
    last = brk["user_stack"][-1]
    assert last == {"file": "/repo/tests/programs/graph_break_print.py", "line": 7,
                    "function": "f", "code": 'print("side effect")'}
    # the frames torch lists under "User code traceback:", and none of Dynamo's below it
    listed = PRINT_BREAK.split("User code traceback:")[1].split("Traceback (most recent")[0]
    assert len(brk["user_stack"]) == listed.count('  File "')
    assert not any("torch/_dynamo" in f["file"] for f in brk["user_stack"])
    # a frame whose next line is another frame has no code line
    assert brk["user_stack"][0]["code"] is None


def test_a_reason_with_no_user_line_takes_the_innermost_frame():
    text = PRINT_BREAK.replace(PRINT_BREAK.splitlines()[0] + "\n", "")
    brk = parse_graph_break(text)
    assert (brk["file"], brk["line"]) == ("/repo/tests/programs/graph_break_print.py", 7)


def test_text_that_is_no_break_reason_reads_as_an_empty_one():
    assert parse_graph_break("") == {
        "file": None, "line": None, "reason": "", "explanation": None, "hints": [],
        "link": None, "developer_context": None, "user_stack": [], "message": "",
        "generic": None, "details": None, "skipped_frame": None,
    }
