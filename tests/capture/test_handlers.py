"""capture/handlers/ on torch's own events, without compiling: the TORCH_TRACE log of a
``print`` break (tests/programs/graph_break_print.py, cut to the events the handlers read:
tests/fixtures/torch_output/regenerate.py), and single events built from the other
excerpts. Each handler's section of the record, as the Assembler fills it."""

from __future__ import annotations

import json

import pytest

from tcexplore.capture.assemble import Assembler
from tcexplore.capture.events import Event
from tcexplore.capture.handlers import HANDLERS, IGNORED, handler_for
from tcexplore.capture.handlers.payloads import MAX_TEXT, bounded_text, json_or_none
from tcexplore.decided import Document
from tcexplore.traces import data_from_log
from tcexplore.traces.log_file import read_trace_log

from ..excerpts import TORCH_OUTPUT, excerpt

LOG = TORCH_OUTPUT / "graph_break_print.log"
PROGRAM = "/repo/tests/programs/graph_break_print.py"


@pytest.fixture(scope="module")
def assembler() -> Assembler:
    log = read_trace_log(LOG)
    assembler = Assembler({})
    for line, metadata, payload in log.records():
        assembler.feed(Event.from_record(metadata, payload), line)
    assert log.problems() == {"lines": log.lines, "unparsed_lines": 0, "bad_envelopes": 0,
                              "payload_mismatches": 0, "other_rank_events": 0}
    return assembler


def _kinds() -> set[str]:
    return {Event.from_record(m, p).kind for _, m, p in read_trace_log(LOG).records()}


def test_every_event_of_the_log_has_a_handler_and_none_raises(assembler):
    assert all(handler_for(kind) not in (None, IGNORED) or kind == "torch_version" for kind in _kinds())
    assert assembler.unknown_events == {} and assembler.unread.section()["events"] == 0


def test_frames_come_from_dynamo_start_and_the_interned_file_names(assembler):
    first, resume = assembler.compiles["0/0"], assembler.compiles["1/0"]
    assert (first["frame"]["function"], first["frame"]["file"], first["frame"]["line"]) == ("f", PROGRAM, 5)
    assert resume["frame"]["function"] == "torch_dynamo_resume_in_f_at_7"
    assert first["stack"][-1] == first["frame"] and PROGRAM in assembler.filenames.values()


def test_the_break_belongs_to_the_attempt_torch_restarted(assembler):
    (brk,) = assembler.graph_breaks
    assert (brk["compile_id"], brk["attempt"], brk["line"]) == ("0/0", 0, 7)
    first = assembler.compiles["0/0"]
    assert first["attempts"] == 2
    assert first["restart_reasons"] == [first["metrics"]["restart_reasons"][0]]
    assert first["restart_reasons"][0].startswith(brk["message"])


def test_graphs_and_output_code_are_kept_as_text_and_parsed(assembler):
    for record in assembler.compiles.values():
        graph = record["dynamo_graph"]
        assert graph["text"] and not graph["truncated"] and graph["nodes"][-1]["op"] == "output"
        assert list(record["aot_graphs"]) == ["inference"] and len(record["post_grad_graphs"]) == 1
        (code,) = record["output_codes"]
        assert code["kind"] == "inference" and code["post_grad_graph"] == 0
        assert code["path"].startswith("/tmp/run/graph_break_print/inductor-cache/")
        assert code["provenance"] and code["kernels"]  # the mapping event after the code
        assert all(k["handles"] for k in code["kernels"] if k["kind"] == "cpp")


def test_guards_and_metrics(assembler):
    for record in assembler.compiles.values():
        assert record["guards_text"] and len(record["guards"]) > 5
        metrics = record["metrics"]
        assert metrics["co_name"] == record["frame"]["function"]
        assert not any(k.endswith("_config") and isinstance(v, str) for k, v in metrics.items())
    assert assembler.memory_budgets == {"0/0": 1.0, "1/0": 1.0}  # torch._functorch.config


def test_the_resume_functions_bytecode_comes_from_torchs_artifacts(assembler):
    (cid,) = assembler.bytecode_texts
    heard = assembler.bytecode_texts[cid]
    assert cid == "1/0" and heard["source"] == "trace_artifact"
    assert heard["original"]["text"].strip() == excerpt("graph_break_print.original_bytecode.txt").strip()
    assert heard["modified"]["text"].strip() == excerpt("graph_break_print.modified_bytecode.txt").strip()


def test_compile_phases_are_torchs_chromium_events(assembler):
    names = {data["name"] for _, data in assembler.chromium}
    assert {"entire_frame_compile", "inductor_compile"} <= names
    assert {cid for cid, _ in assembler.chromium} == {"0/0", "1/0"}


def test_the_log_reads_into_a_valid_document():
    document = Document.built(data_from_log(read_trace_log(LOG))).data
    assert document["summary"]["graph_breaks"] == 1 and document["summary"]["output_codes"] == 2
    assert [c["status"] for c in document["compiles"]] == ["ok", "ok"]


def _event(kind: str, payload: str | None = None, data=None, frame=(0, 1)) -> Event:
    return Event(kind, data, payload, *frame, 0, None)


def test_a_recompile_reason_event_is_one_list_of_reasons_on_its_compile():
    assembler = Assembler({})
    assembler.feed(_event("recompile_reasons", excerpt("recompile_shape.recompile_reasons.txt")))
    (reasons,) = assembler.compiles["0/1"]["recompile_reasons"]
    assert [r["failed_compile_id"] for r in reasons] == ["0/0"]


def test_cache_events_name_the_cache_and_outcome():
    cache = json.loads(excerpt("cached.fx_graph_cache.json"))
    assembler = Assembler({})
    assembler.feed(_event("fx_graph_cache_miss", json.dumps(cache["miss"])))
    assembler.feed(_event("fx_graph_cache_hit", json.dumps(cache["hit"])))
    miss, hit = assembler.compiles["0/1"]["cache"]
    assert (miss["cache"], miss["result"], hit["result"]) == ("fx_graph", "miss", "hit")
    assert miss["key"] == hit["key"] == cache["miss"]["key"] and hit["time_saved_ms"] > 0


def test_cudagraph_messages_go_to_the_compile_they_name_or_the_session():
    messages = json.loads(excerpt("cudagraphs.messages.json"))["messages"]
    assembler = Assembler({})
    assembler.feed(_event("dynamo_start", data={"stack": []}, frame=(1, 0)))
    for message in messages:
        assembler.feed(_event("log_cudagraphs", data={"level": "DEBUG", "message": message}, frame=(None, None)))
    named = [m for m in messages if m.startswith("[1/0] ")]
    state = assembler.compiles["1/0"]["cudagraphs"]
    assert state["recordings"] + state["rerecordings"] + len(state["messages"]) == len(named)
    assert assembler.session_cudagraphs["summary"]["partitions"] == len(
        assembler.session_cudagraphs["partitions"])


def test_payloads_are_bounded_and_json_read_or_none():
    assert bounded_text("x" * (MAX_TEXT + 5)) == {"text": "x" * MAX_TEXT, "truncated": True,
                                                  "chars": MAX_TEXT + 5}
    assert json_or_none('{"a": 1}') == {"a": 1} and json_or_none("{") is None and json_or_none(None) is None
    assert "dynamo_output_graph" in HANDLERS and handler_for("f_ORIGINAL_BYTECODE") is not None
    assert handler_for("a_kind_torch_adds_next_year") is None
