"""Dynamo's own view: both bytecodes of every transformed frame, the reading of the modified
code, jumps into resume functions and the breaks they continue, tracing time.

The corpus tests read the session's program runs (tests/conftest.py) and hold on any torch
tcexplore supports: on the GPU machine's torch 2.11 run
``python -m pytest tests/capture/test_bytecode.py -q`` as well (with
``TCEXPLORE_TEST_PROGRAMS=graph_break_print,graph_break_two_callers,graph_break_explicit,graph_break_data_dependent``
the corpus is only the programs these tests read: 18 passed in 94 s on an H100's torch 2.11).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

import tcexplore
from tcexplore.capture.parsers.disassembly import parse_bytecode
from tcexplore.capture.resume_links import RESUME_NAME
from tcexplore.capture.transformed import read_modified
from tcexplore.document import validate
from tcexplore.render.html import render_html

from ..conftest import PROGRAMS

FIXTURES = Path(__file__).parents[1] / "fixtures" / "bytecode"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
TRANSFORMED = ("ok", "no_graph", "cache_hit")  # statuses of a compile whose code torch installed


def _with_breaks(program_runs):
    return {name: run.document for name, run in program_runs.items()
            if run.document["graph_breaks"]}


def test_every_compile_of_a_program_with_a_break_carries_both_bytecodes(program_runs):
    broken = _with_breaks(program_runs)
    assert {"graph_break_print", "graph_break_two_callers", "graph_break_explicit",
            "graph_break_data_dependent"} <= set(broken)
    for name, document in broken.items():
        # a frame Dynamo traced and then ran eagerly (no ops traced) gets no new code
        eager = {(s["function"], s["line"]) for s in document.get("not_compiled") or []
                 if s["category"] == "no_tensor_ops"}
        for record in document["compiles"]:
            if record["status"] not in TRANSFORMED or (
                    (record["frame"]["function"], record["frame"]["line"]) in eager):
                continue
            section = record["bytecode"]
            assert section is not None, f"{name} {record['id']}: no bytecode"
            assert section["source"] == "bytecode_hook"
            for part in ("original", "modified"):
                instructions = section[part]["instructions"]
                assert instructions and section[part]["text"], f"{name} {record['id']} {part}"
                assert all(i["line"] is not None for i in instructions if i["starts_line"])
            assert section["reading"]["complete"], f"{name} {record['id']}: reading stopped"


def test_every_resume_compile_names_the_break_it_continues(program_runs):
    for name, document in _with_breaks(program_runs).items():
        breaks = document["graph_breaks"]
        by_id = {c["id"]: c for c in document["compiles"]}
        resumes = [c for c in document["compiles"]
                   if RESUME_NAME.match((c["frame"] or {}).get("function") or "")]
        assert resumes, name
        for record in resumes:
            continued = record["resume_of"]
            assert continued is not None, f"{name} {record['id']}: no resume_of"
            brk = breaks[continued["graph_break"]]
            assert brk["compile_id"] == continued["compile_id"]
            assert (brk["file"], brk["line"]) == (continued["file"], continued["line"])
            jumps = by_id[continued["compile_id"]]["bytecode"]["resume_jumps"]
            function = record["frame"]["function"]
            assert any(record["id"] in j["compiles"] and j["function"] == function
                       for j in jumps), f"{name} {record['id']}: no jump leads to it"


def test_reading_of_a_print_break_calls_the_graph_runs_print_and_resumes(program_runs):
    document = program_runs["graph_break_print"].document
    first = document["compiles"][0]
    steps = [s for s in first["bytecode"]["reading"]["steps"] if s["kind"] != "helper"]
    assert [s["kind"] for s in steps] == ["graph", "eager", "resume"]
    graph, eager, resume = steps
    assert graph["text"].endswith("(x)") and graph["graph"].startswith("__compiled_fn_")
    assert eager["text"] == "print('side effect')" and eager["line"] == 7
    assert resume["text"].startswith("return __resume_at_")
    (jump,) = first["bytecode"]["resume_jumps"]
    assert jump == {**jump, "line": 7, "function": "torch_dynamo_resume_in_f_at_7",
                    "graph_break": 0, "compiles": ["1/0"], "shared_name": False}
    modified = first["bytecode"]["modified"]["instructions"]
    assert any(modified[i]["opname"].startswith("CALL") for i in graph["instructions"])


def test_both_ways_of_a_data_dependent_branch_are_read_and_said_to_share_a_name(program_runs):
    first = program_runs["graph_break_data_dependent"].document["compiles"][0]
    kinds = [s["kind"] for s in first["bytecode"]["reading"]["steps"] if s["kind"] != "helper"]
    assert kinds == ["graph", "branch", "resume", "resume"]
    jumps = first["bytecode"]["resume_jumps"]
    assert len(jumps) == 2 and all(j["shared_name"] for j in jumps)
    assert {j["function"] for j in jumps} == {"torch_dynamo_resume_in_f_at_6"}


def test_a_compile_knows_the_call_path_that_made_it(program_runs):
    document = program_runs["graph_break_two_callers"].document
    scale = next(c for c in document["compiles"] if c["frame"]["function"] == "scale")
    user = [(f["function"], f["line"]) for f in scale["stack"]
            if f["file"].endswith("graph_break_two_callers.py")]
    assert user[0] == ("<module>", 23) and user[-1] == ("scale", 6)


def test_tracing_time_of_each_frame_from_the_compile_phases(program_runs):
    for record in program_runs["graph_break_two_callers"].document["compiles"]:
        tracing = record["tracing"]
        assert tracing["source"] == "chromium_events" and tracing["total_ms"] > 0
        (row,) = tracing["functions"]
        assert row["function"] == record["frame"]["function"]
        assert row["cumtime_ms"] == tracing["total_ms"]


def test_replayed_side_effects_are_read_as_writes():
    class Box:
        counter = 0

    log: list[int] = []

    def f(x, box):
        y = x.sin()
        box.counter = box.counter + 1
        log.append(1)
        print("replay")
        return y.cos()

    with tcexplore.capture() as session:
        torch.compile(f, backend="eager")(torch.randn(4), Box())
    document = session.document.data
    validate(document)
    section = document["compiles"][0]["bytecode"]
    writes = [s["text"] for s in section["reading"]["steps"] if s["kind"] == "side_effect"]
    assert "log[:] = [1]" in writes
    assert any(w.startswith("box.counter = 1") for w in writes)
    if section["side_effects"] is not None:  # torch 2.13+ says which sources it replays
        assert set(section["side_effects"]) == {"L['box']", "L['log']"}  # log: a closure cell


def test_per_function_tracing_time_where_the_user_runs_torchs_profiler(capsys):
    if not tcexplore._torch_compat.has_dynamo_profiler():
        pytest.skip("this torch has no Dynamo profiler (torch 2.13 added it)")

    def helper(t):
        return t.sin() * 2

    def f(x):
        return helper(x) + helper(x.cos())

    with torch._dynamo.config.patch(dynamo_profiler=True), tcexplore.capture() as session:
        torch.compile(f, backend="eager")(torch.randn(8))
    tracing = session.document.data["compiles"][0]["tracing"]
    assert tracing["source"] == "dynamo_profiler"
    rows = {r["function"]: r for r in tracing["functions"]}
    assert rows["helper"]["calls"] == 2 and rows["helper"]["depth"] == 1
    # the frame's function first, holding what it inlined (two clocks, torch's profiler and
    # the compile's phase events, time it: on a loaded machine they part by more than 10%)
    assert [r["function"] for r in tracing["functions"]][:1] == ["f"]
    assert rows["f"]["depth"] == 0 and rows["f"]["cumtime_ms"] >= rows["helper"]["cumtime_ms"] > 0
    assert tracing["total_ms"] > 0
    assert "Dynamo Profiler" in capsys.readouterr().out  # the user asked for its print


@pytest.mark.parametrize("version", ["3.10", "3.11", "3.12", "3.13", "3.13_offsets"])
def test_disassembly_of_each_python_layout_reads_back(version):
    instructions = parse_bytecode((FIXTURES / f"dis_{version}.txt").read_text())
    lines = [i["line"] for i in instructions if i["starts_line"]]
    assert lines[:2] in ([2, 3], [3, 4]) and lines[-1] == 8
    jump = next(i for i in instructions if i["opname"] in ("POP_JUMP_IF_FALSE",
                                                          "POP_JUMP_FORWARD_IF_FALSE"))
    target = next(i for i in instructions if i["label"] == jump["target"])
    assert target["opname"] == "LOAD_GLOBAL" and target["line"] == 6
    store = next(i for i in instructions if i["opname"] == "STORE_ATTR")
    assert (store["line"], store["argrepr"]) == (5, "counter")
    has_offsets = version != "3.13"
    assert all((i["offset"] is not None) == has_offsets for i in instructions)


@pytest.mark.parametrize("version", ["3.10", "3.11", "3.12", "3.13"])
def test_each_pythons_layout_of_modified_code_reads_the_same(version):
    """Dynamo-shaped code (tests/fixtures/bytecode/regenerate.py) as each Python prints it."""
    reading = read_modified(parse_bytecode((FIXTURES / f"modified_{version}.txt").read_text()))
    assert reading["complete"]
    assert [(s["kind"], s["text"]) for s in reading["steps"]] == [
        ("graph", "graph_out_0 = __compiled_fn_1(x)"),
        ("side_effect", "box.counter = 1"),
        ("side_effect", "seen[:] = [1]"),
        ("eager", "print('side effect')"),
        ("resume", "return __resume_at_20_2(print('side effect'), graph_out_0[0])")]


def test_dynamos_own_timing_around_the_graph_call_is_read_as_its_bookkeeping():
    """torch 2.15 wraps the graph call's inputs in ``record_pregraph_bytecode_enter/exit``,
    run only while a profiler is on: recorded as torch 2.15 printed it for
    tests/programs/graph_break_print.py. Its branches test Dynamo's values, not the user's;
    the stack copied for the other way of each keeps the graph's NULL, so the graph call
    reads as one."""
    text = (FIXTURES / "modified_torch2.15_pregraph_3.11.txt").read_text()
    reading = read_modified(parse_bytecode(text))
    assert reading["complete"]
    assert [(s["kind"], s["text"].split(": jump")[0]) for s in reading["steps"]] == [
        ("helper", "if not torch.autograd.profiler._is_profiler_enabled"),
        ("helper", "tmp_1 = torch._dynamo.utils.record_pregraph_bytecode_enter()"),
        ("helper", "if (tmp_1 is None)"),
        ("helper", "torch._dynamo.utils.record_pregraph_bytecode_exit(tmp_1)"),
        ("graph", "graph_out_0 = __compiled_fn_2(x)"),
        ("eager", "print('side effect')"),
        ("resume", "return __resume_at_70_3([], [], print('side effect'), graph_out_0[0])")]


def test_html_report_shows_the_reading_and_both_bytecodes():
    page = render_html(json.loads((FIXTURES / "document.json").read_text()))
    assert "Bytecode: original and modified" in page
    assert "<code>print(&#x27;side effect&#x27;)</code>" in page
    assert 'class="tcx-bc-resume-point"' in page and 'class="tcx-bc-graph"' in page
    assert "A resume function: it continues the graph break at" in page
