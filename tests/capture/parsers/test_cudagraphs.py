"""capture/parsers/cudagraphs.py on torch's ``cudagraphs`` log messages (a reduce-overhead
run's partitions, a skip, warm-up and recordings; how the excerpt was made: its ``how``)."""

from __future__ import annotations

import json

from tcexplore.capture.compile_record import new_compile_record
from tcexplore.capture.events import Event
from tcexplore.capture.parsers.cudagraphs import apply_cudagraph_message

from ...excerpts import excerpt

MESSAGES = json.loads(excerpt("cudagraphs.messages.json"))["messages"]


def _folded(messages: list[str]) -> dict:
    state = new_compile_record("0/0", Event("", None, None, 0, 0, 0, None))["cudagraphs"]
    for message in messages:
        apply_cudagraph_message(state, message)
    return state


def test_partitions_are_counted_and_listed_with_the_ops_that_keep_one_out():
    state = _folded(MESSAGES)
    created = next(m for m in MESSAGES if m.startswith("Created "))
    total, yes, no = (int(w) for w in created.replace(",", "").split() if w.isdigit())
    assert state["summary"] == {"partitions": total, "cudagraphable": yes, "non_cudagraphable": no}
    assert len(state["partitions"]) == total
    assert sum(p["cudagraphable"] for p in state["partitions"]) == yes
    assert [p["index"] for p in state["partitions"]] == list(range(total))
    assert all(p["nodes"] > 0 and p["detail"].startswith("inputs=") for p in state["partitions"])
    ops = [m for m in MESSAGES if m.lstrip().startswith("op") and ": reason=" in m]
    read = [op for p in state["partitions"] for op in p.get("ops", [])]
    assert len(read) == len(ops)
    for op, message in zip(read, ops):
        assert f"reason={op['reason']}, ir={op['ir']}, fx={op['fx']}" in message


def test_a_skip_keeps_its_reason_apart_from_the_users_line_it_was_found_from():
    (skip,) = _folded(MESSAGES)["skips"]
    assert skip["reason"] == "mutated inputs (1 instances)"
    frame = skip["user_stack"][-1]
    assert (frame["file"], frame["line"], frame["function"]) == (
        "/repo/tests/gpu_programs/cuda_modes.py", 17, "forward")
    assert frame["code"].startswith("counter.add_(1)")


def test_recordings_are_counted_and_other_messages_kept():
    state = _folded(MESSAGES)
    recorded = [m for m in MESSAGES if " Recording function=" in m]
    rerecorded = [m for m in MESSAGES if " Re-recording function=" in m]
    assert (state["recordings"], state["rerecordings"]) == (len(recorded), len(rerecorded))
    assert state["messages"] == [m for m in MESSAGES if "Running warmup" in m or "cudagraph tree" in m]


def test_an_op_line_before_any_partition_is_kept_as_a_message():
    op = next(m for m in MESSAGES if m.lstrip().startswith("op"))
    state = _folded([op])
    assert state["partitions"] == [] and state["messages"] == [op]
