"""Never all-or-nothing (issue 32): a damaged log, a handler or a finding that raises cost
only themselves; the document is always made, and says what it could not read.

The damage is seeded (tests/damage.py): 10% of a real log's event lines get a key dropped,
a value of the wrong type, the line cut short or the payload cut short, as a killed job, a
full disk or a newer torch leaves them. tlparse reads the same damaged log for comparison.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import tcexplore
from tcexplore.capture.handlers import HANDLERS
from tcexplore.document import SUMMARY_KEYS, validate
from tcexplore.findings import graph_break
from tcexplore.render.html import render_html

from ..conftest import tlparse_counts
from ..damage import damage

PROGRAMS = ("training_step", "graph_break_two_callers")
FIXTURES = Path(__file__).parents[1] / "fixtures"
SEEDS = (1, 2, 3)


def _unread_finding(data: dict) -> dict:
    (found,) = [f for f in data["findings"] if f["kind"] == "unread"]
    return found


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", PROGRAMS)
def test_a_damaged_log_keeps_what_tlparse_keeps_and_counts_the_rest(program_runs, tmp_path,
                                                                   name, seed):
    damaged, done = damage(program_runs[name].trace_log.read_bytes(), seed)
    log = tmp_path / "damaged.log"
    log.write_bytes(damaged)
    proc = subprocess.run([sys.executable, "-m", "tcexplore", "import", str(log), "--json",
                           str(tmp_path / "doc.json")], capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    skipped = [line for line in proc.stderr.splitlines() if "skipped or read in part" in line]
    assert len(skipped) == 1, proc.stderr
    data = json.loads((tmp_path / "doc.json").read_text())
    validate(data)
    tlparse = tlparse_counts(log, tmp_path / "tl")
    for key in ("graphs", "output_codes"):
        assert data["summary"][key] >= tlparse[key], (key, data["summary"], tlparse, done)
    unread = data["capture"]["unread"]
    assert data["summary"]["unread_events"] == unread["events"] > 0
    assert f" {unread['events']} damaged or unreadable trace events " in skipped[0]
    # every envelope line cut short is a bad_json entry (unless it was the log's last line)
    cut_envelopes = unread["counts"]["bad_json"] + bool(data["capture"]["partial"])
    assert cut_envelopes >= done["line_cut"], (unread["counts"], done)
    assert unread["events"] <= sum(done.values()) + data["capture"]["log"]["payload_mismatches"]
    finding = _unread_finding(data)
    assert finding["severity"] == "warning" and str(unread["events"]) in finding["title"]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_log_cut_mid_event_keeps_everything_before_the_cut(program_runs, tmp_path, seed):
    """Cut anywhere inside an event: the document is the one of the whole events before it."""
    text = program_runs["graph_break_two_callers"].trace_log.read_bytes()
    starts, at = [], 0
    for line in text.split(b"\n")[:-1]:
        starts.append((at, line[:1] == b"\t"))
        at += len(line) + 1
    rng = random.Random(seed)
    for _ in range(3):
        index = rng.randrange(1, len(starts) - 1)
        begin, end = starts[index][0], starts[index + 1][0] - 1
        if end - begin < 2:  # a line too short to cut inside
            continue
        cut = rng.randrange(begin + 1, end)  # inside the line, never at its end
        while starts[index][1]:  # a payload line: its event starts at the envelope above
            index -= 1
        (tmp_path / "cut.log").write_bytes(text[:cut])
        (tmp_path / "whole.log").write_bytes(text[:starts[index][0]])
        cut_doc = tcexplore.load_trace(tmp_path / "cut.log").data
        whole = tcexplore.load_trace(tmp_path / "whole.log").data
        assert cut_doc["capture"]["partial"], cut
        assert {k: cut_doc["summary"][k] for k in SUMMARY_KEYS} == \
            {k: whole["summary"][k] for k in SUMMARY_KEYS}, cut
        assert [c["id"] for c in cut_doc["compiles"]] == [c["id"] for c in whole["compiles"]]


def _boom(assembler, event, record):
    raise RuntimeError("a handler made to fail")


def _step(x):
    return torch.nn.functional.gelu(x @ x.T).sum(dim=0)


def test_a_handler_that_raises_costs_only_its_own_events(monkeypatch):
    """A real capture with the output-code handler made to raise: every compile, graph,
    guard and break is kept; only the output codes are missing, each one an unread event,
    and the finding says what to report."""
    inputs = (torch.randn(8, 8),)
    torch.compiler.reset()
    # both cold: the second would otherwise be served from the entries the first wrote
    with tcexplore.capture(bypass_caches=True) as session:
        torch.compile(_step)(*inputs)
    whole = session.document.data
    monkeypatch.setitem(HANDLERS, "inductor_output_code", _boom)
    torch.compiler.reset()
    with tcexplore.capture(bypass_caches=True) as session:
        torch.compile(_step)(*inputs)
    data = session.document.data
    lost = whole["summary"]["output_codes"]
    assert lost >= 1 and data["summary"]["output_codes"] == 0
    unread = data["capture"]["unread"]
    assert data["summary"]["unread_events"] == lost == unread["counts"]["handler"]
    for key in ("graphs", "graph_breaks", "recompiles", "guards", "failures"):
        assert data["summary"][key] == whole["summary"][key], key
    assert [c["status"] for c in data["compiles"]] == [c["status"] for c in whole["compiles"]]
    items = unread["items"]
    assert {(i["reason"], i["kind"], i["error"]) for i in items} == {
        ("handler", "inductor_output_code", "RuntimeError: a handler made to fail")}
    assert all(i["compile"] == data["compiles"][0]["id"] and i["excerpt"] for i in items)
    finding = _unread_finding(data)
    report = f"report: tcexplore {tcexplore.__version__}, torch {torch.__version__}: " \
             "inductor_output_code event: RuntimeError: a handler made to fail"
    assert report in finding["details"]
    page = render_html(data)
    assert "Unread events" in page and "a handler made to fail" in page


def test_explore_and_compare_with_a_failing_handler_still_give_documents(monkeypatch):
    """What a user does next, explore() and compare(), meets the same fault: a document
    comes back, measured, with the unread finding, in each row of the grid too."""
    monkeypatch.setitem(HANDLERS, "inductor_output_code", _boom)
    exploration = tcexplore.explore(_step, torch.randn(8, 8), time_budget_s=0.1)
    grid = tcexplore.compare(_step, torch.randn(8, 8), time_budget_s=0.1)
    (row,) = grid.rows
    for data in (exploration.document.data, row["exploration"].document.data):
        assert data["summary"]["graphs"] == 1 and data["summary"]["unread_events"] >= 1
        assert "timing" in data and _unread_finding(data)["count"] >= 1


def test_a_finding_that_raises_costs_only_itself(program_runs, monkeypatch):
    """One kind of finding raising leaves the others, and is itself named."""
    data = json.loads(json.dumps(program_runs["graph_break_two_callers"].document))
    monkeypatch.setattr(graph_break, "find", lambda data: 1 / 0)
    document = tcexplore.Document(data).with_sections()
    kinds = {f["kind"] for f in document.data["findings"]}
    assert "graph_break" not in kinds and "unread" in kinds and len(kinds) > 2
    unread = document.data["capture"]["unread"]
    assert unread["counts"]["finding"] == 1 and unread["events"] == 0
    assert unread["items"][0]["kind"] == "graph_break"
    validate(document.data)
    again = tcexplore.Document(document.data).with_sections()  # decided again: counted once
    assert again.data["capture"]["unread"]["counts"]["finding"] == 1


def test_a_report_section_that_cannot_be_drawn_costs_only_itself(monkeypatch):
    import tcexplore.render.html as report

    data = json.loads((FIXTURES / "labels" / "document.json").read_text())
    monkeypatch.setattr(report, "memory_section", lambda data: 1 / 0)
    page = render_html(data)
    assert ("The memory section could not be drawn (ZeroDivisionError: division by zero); "
            "the rest of the report is kept.") in page
    assert 'id="tcx-overview"' in page and 'id="tcx-compiles"' in page


def test_an_event_that_lost_half_its_compile_id_is_read_with_the_compile_in_progress(
        program_runs, tmp_path):
    """torch writes a compile id's two parts (frame_id, frame_compile_id) or neither: an
    output code whose line lost its frame_id is read as part of the compile it stands in,
    said in the unread entry, and made no compile of its own (tlparse files it apart)."""
    run = program_runs["training_step"]
    lines = run.trace_log.read_bytes().split(b"\n")
    (first, *_) = [i for i, line in enumerate(lines) if b'{"inductor_output_code"' in line]
    head, _, body = lines[first].partition(b"] ")
    envelope = json.loads(body)
    del envelope["frame_id"]
    lines[first] = head + b"] " + json.dumps(envelope).encode()
    log = tmp_path / "damaged.log"
    log.write_bytes(b"\n".join(lines))
    data = tcexplore.load_trace(log).data
    whole = run.document["summary"]
    assert data["summary"]["output_codes"] == whole["output_codes"] == 2
    assert [c["id"] for c in data["compiles"]] == [c["id"] for c in run.document["compiles"]]
    (entry,) = [i for i in data["capture"]["unread"]["items"] if i["kind"] == "inductor_output_code"]
    assert entry["reason"] == "bad_envelope" and entry["line"] == first + 1
    assert "read as part of compile 0/0, the compile in progress" in entry["error"]
