"""The graph-break audit (tcexplore.findings.graph_break_audit), on the corpus' graph-break programs
and the notebook tour: sites, counts equal to tlparse's, torch's reason, folded stacks,
resume functions, and how the CLI, the HTML report and notebooks show it."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tcexplore
from tcexplore.findings.graph_break_audit import graph_break_audit, graph_break_lines
from tcexplore.render.html import render_html

from ..conftest import PROGRAMS
from ..inductor_cache import fresh_inductor_cache
from ..notebook_tour import MIME

FIXTURE = Path(__file__).parents[1] / "fixtures" / "graph_break_audit"
BREAK_PROGRAMS = ["graph_break_data_dependent", "graph_break_explicit", "graph_break_print",
                  "graph_break_two_callers"]


def _audit(run):
    return tcexplore.Document(run.document, check=False).graph_break_audit()


@pytest.mark.parametrize("name", BREAK_PROGRAMS)
def test_sites_group_every_break_event_and_add_up_to_tlparses_count(program_runs, name):
    run = program_runs[name]
    sites = _audit(run)
    breaks = run.document["graph_breaks"]
    assert sum(site["count"] for site in sites) == len(breaks) == run.tlparse_counts["graph_breaks"]
    assert len(sites) == len({(b["file"], b["line"]) for b in breaks})
    assert sorted(i for site in sites for i in site["events"]) == list(range(len(breaks)))


def test_one_line_reached_by_two_callers_and_a_recompile_is_one_site(program_runs):
    run = program_runs["graph_break_two_callers"]
    (site,) = _audit(run)
    assert (Path(site["file"]).name, site["line"], site["function"]) == (
        "graph_break_two_callers.py", 7, "scale")
    assert site["code"] == "return t * t.sum().item()"
    # Every frame Dynamo traced down to the line reports it, and again after the new shape.
    frames = {frame["function"]: frame["count"] for frame in site["frames"]}
    assert {"f", "head", "tail", "scale"} <= set(frames) and set(frames.values()) == {2}
    assert site["count"] == sum(frames.values()) == 10
    callers = {tuple(f["function"] for f in path["stack"] if not f["library"])[-2]
               for path in site["paths"]}
    assert callers == {"head", "tail"}


def test_site_leads_with_torchs_specific_reason_and_keeps_the_rest(program_runs):
    (site,) = _audit(program_runs["graph_break_two_callers"])
    (reason,) = site["reasons"]
    assert reason["message"] == "Unsupported Tensor.item() call with capture_scalar_outputs=False"
    assert reason["generic"].startswith("Encountered graph break when attempting to trace")
    assert "Tensor.item()" in reason["explanation"]
    assert any("capture_scalar_outputs" in hint for hint in reason["hints"])
    assert reason["link"].startswith("https://") and reason["link"].endswith(".html")
    assert "item" in reason["developer_context"]
    (data_dependent, item) = _audit(program_runs["graph_break_data_dependent"])
    assert data_dependent["reasons"][0]["message"] == "Data-dependent branching"
    assert "branch condition" in data_dependent["reasons"][0]["details"]


def test_user_stack_starts_at_the_scripts_top_level(program_runs):
    """Under `tcexplore run` torch's traceback starts with runpy's frames and tcexplore's
    own (capture/own_frames.py): the stack kept starts at the script's ``<module>``, as
    ``python script.py``'s does (test_a_scripts_break_stacks_are_those_of_python_script_py)."""
    run = program_runs["graph_break_two_callers"]
    (site,) = _audit(run)
    for path in site["paths"]:
        stack = path["stack"]
        assert stack[0]["function"] == "<module>"
        assert {Path(f["file"]).name for f in stack} == {"graph_break_two_callers.py"}
        assert not [f for f in stack if "runpy" in f["file"] or "tcexplore" in f["file"]]
    assert sum(p["count"] for p in site["paths"]) == site["count"]
    assert len(site["paths"][0]["stack"]) == len(run.document["graph_breaks"][0]["user_stack"])


def test_resume_functions_are_linked_to_their_compiles(program_runs):
    document = program_runs["graph_break_two_callers"].document
    (site,) = _audit(program_runs["graph_break_two_callers"])
    frames = {c["id"]: c["frame"]["function"] for c in document["compiles"]}
    resumes = {r["name"]: r["compiles"] for r in site["resume_functions"]}
    assert set(resumes) == {"torch_dynamo_resume_in_scale_at_7", "torch_dynamo_resume_in_f_at_19"}
    for name, ids in resumes.items():
        assert ids and all(frames[cid] == name for cid in ids)
    assert len(resumes["torch_dynamo_resume_in_scale_at_7"]) == 3  # and its two recompiles


def test_run_prints_each_site_with_its_count_reason_hint_and_link(program_runs):
    run = program_runs["graph_break_two_callers"]
    assert graph_break_lines(_audit(run))[0] in run.stderr
    assert "#1 10x " in run.stderr and "Unsupported Tensor.item()" in run.stderr
    assert "hint: Set `torch._dynamo.config.capture_scalar_outputs = True`" in run.stderr
    assert "via: <module> (line 23) -> f (line 19) -> " in run.stderr


def test_report_lists_sites_first_and_folds_library_frames(program_runs):
    document = program_runs["graph_break_two_callers"].document
    page = render_html(document)
    table = page[page.index('class="tcx-break-audit"'):]
    assert '<a href="#tcx-graph-break-0">#1</a></td><td>10</td>' in table
    # the stack starts at the script's top level: the frames above it under `tcexplore run`
    # (runpy's, tcexplore's own) are not the program's, and nothing is left to fold
    stack = document["graph_break_sites"][0]["paths"][0]["stack"]
    assert stack[0]["function"] == "<module>" and Path(stack[0]["file"]).name == (
        "graph_break_two_callers.py")
    assert not any(frame["library"] for frame in stack)
    assert 'id="tcx-graph-break-0"' in page and not re.search(r"\d+ library frames", page)
    assert html.escape("Unsupported Tensor.item() call with capture_scalar_outputs=False") in page
    assert "torch_dynamo_resume_in_scale_at_7" in page
    assert "Graph breaks (10 events at 1 site)" in page


def test_a_scripts_break_stacks_are_those_of_python_script_py(program_runs, tmp_path):
    """The program run plainly (``python script.py``, TORCH_TRACE on, no tcexplore) and read
    back: its graph breaks' stacks are the ones `tcexplore run` records, frame for frame."""
    name = "graph_break_two_callers"
    env = dict(os.environ, TORCH_TRACE=str(tmp_path / "trace"),
               TORCHINDUCTOR_CACHE_DIR=str(fresh_inductor_cache(tmp_path / "cache")))
    subprocess.run([sys.executable, str(PROGRAMS / f"{name}.py")], env=env, check=True,
                   capture_output=True, timeout=300, cwd=tmp_path)
    plain = tcexplore.load_trace(tmp_path / "trace").data

    def stacks(document):
        return [[(f["file"], f["line"], f["function"]) for f in brk["user_stack"]]
                for brk in document["graph_breaks"]]

    assert stacks(plain) and stacks(program_runs[name].document) == stacks(plain)


def test_notebook_break_is_labelled_by_its_cell(tour):
    (bundle,) = tour.bundles("graph_break")
    document = bundle["data"][MIME]
    (site,) = tcexplore.Document(document, check=False).graph_break_audit()
    label = f"cell [{tour.cell('graph_break').execution_count}]"
    assert site["where"] == f"{label}, line 3" and site["count"] == 1
    shown = [f for f in site["paths"][0]["stack"] if not f["library"]]
    assert all(f["where"].startswith(label) for f in shown)
    assert "ipykernel" not in " ".join(f["where"] for f in shown)
    report = bundle["data"]["text/html"]
    assert f"{label}, line 3" in report and 'href="#tcx-graph-break-0"' in report


def test_capture_splits_each_reason_once_into_torchs_lines(program_runs):
    """The parts stored at capture are the reason's lines, none dropped, none repeated."""
    breaks = [brk for name in BREAK_PROGRAMS for brk in program_runs[name].document["graph_breaks"]]
    assert breaks
    for brk in breaks:
        lines = [line.strip() for line in brk["reason"].splitlines() if line.strip()]
        parts = [brk["generic"], brk["message"], *(brk["details"] or "").splitlines()]
        assert [p for p in parts if p] == lines
        assert not brk["message"].startswith("Encountered graph break")


def test_an_older_document_gets_its_reasons_split_on_load(tmp_path):
    """A document saved before capture split the reason: tcexplore.load() splits it as
    capture does, so its audit is the same."""
    document = json.loads((FIXTURE / "document.json").read_text())
    for brk in document["graph_breaks"]:
        for part in ("message", "generic", "details"):
            brk.pop(part)
    (tmp_path / "older.json").write_text(json.dumps(document))
    loaded = tcexplore.load(tmp_path / "older.json")
    assert loaded.graph_break_audit() == json.loads((FIXTURE / "expected.json").read_text())


def test_python_and_typescript_audits_are_pinned_to_one_result():
    """extension/src/__tests__/breaks.spec.ts compares its audit with the same file."""
    document = json.loads((FIXTURE / "document.json").read_text())
    assert graph_break_audit(document) == json.loads((FIXTURE / "expected.json").read_text())


def test_fixture_cell_report_shows_cells_and_no_temporary_file_names():
    page = render_html(tcexplore.load(FIXTURE / "document.json"))  # its sites computed on load
    breaks = page[page.index('id="tcx-graph-breaks"'):page.index('class="tcx-compiles"')]
    assert "cell [2], line 2" in breaks and "cell [3], line 4" in breaks
    assert "ipykernel_" not in breaks.replace("ipykernel_launcher", "")
