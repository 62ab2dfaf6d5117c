"""%%tcompile in a real notebook kernel: tests/notebook_tour.py, executed once (nbclient)."""

from __future__ import annotations

import html
import re

import pytest

from tcexplore.document import validate

from ..notebook_tour import HOSTILE, MIME


def _document(tour, name):
    (bundle,) = tour.bundles(name)
    document = bundle["data"][MIME]
    validate(document)
    return document, bundle["data"]["text/html"]


def _label(tour, name):
    return f"cell [{tour.cell(name).execution_count}]"


def test_setup_ran_without_errors(tour):
    assert not tour.outputs("setup", "error")
    print(f"notebook executed in {tour.seconds:.1f} s")


def test_plain_cell_has_one_display_with_the_document_html_and_text(tour):
    outputs = tour.outputs("plain")
    (display,) = [o for o in outputs if o.output_type == "display_data"]
    assert set(display["data"]) == {MIME, "text/html", "text/plain"}
    assert "tcx-progress" not in str(outputs), "the progress display was replaced"
    document, page = _document(tour, "plain")
    assert document["summary"]["graphs"] == 1 and document["summary"]["kernels"] >= 1
    assert document["summary"]["graph_breaks"] == 0
    assert document["timing"]["eager"]["samples"] > 0 and document["timing"]["compile_s"] > 0
    assert document["accuracy"]["ok"] is True
    paths = {leaf["path"] for leaf in document["accuracy"]["outputs"]}
    assert paths == {"last expression", "h", "s"}
    assert display["data"]["text/plain"].startswith("<tcexplore.Exploration graphs=1")
    (result,) = tour.outputs("plain", "execute_result")
    assert result["data"]["text/plain"].startswith("tensor([")


def test_progress_names_each_stage_while_compiling_then_shows_the_result(tour):
    updates = tour.updates["plain"]
    label = f"torch.compile {_label(tour, 'plain')}: "
    stages = [u.removeprefix(label).split(" (")[0] for u in updates[:-1]]
    assert all(u.startswith(label) for u in updates[:-1])
    for stage in ("Dynamo tracing frame", "AOTAutograd frame", "Inductor codegen frame",
                  "compiling kernels frame", "running eager for accuracy and timing"):
        assert any(s.startswith(stage) for s in stages), (stage, stages)
    assert updates[-1].startswith("<tcexplore.Exploration"), "replaced by the result"


def test_locations_read_cell_and_line_not_temp_file_names(tour):
    document, page = _document(tour, "plain")
    labels = document["explore"]["source_labels"]
    (cell_file,) = [f for f, label in labels.items() if label == _label(tour, "plain")]
    frame = document["compiles"][0]["frame"]
    assert frame["file"] == cell_file and frame["line"] == 2  # the document keeps real names
    assert f"{_label(tour, 'plain')}, line 2" in page
    assert cell_file not in page
    assert document["explore"]["sources"][cell_file].startswith("%%tcompile")


def test_graph_break_points_at_the_cell_line_and_hostile_output_is_escaped(tour):
    document, page = _document(tour, "graph_break")
    (brk,) = document["graph_breaks"]
    assert brk["line"] == 3 and document["explore"]["source_labels"][brk["file"]] == _label(
        tour, "graph_break")
    assert tour.stdout("graph_break").count(HOSTILE) == 1, "prints show once, from the real run"
    assert HOSTILE not in page and "<img" not in page
    assert html.escape(HOSTILE, quote=True) in page
    # The source view marks the line of the break.
    assert re.search(r'<span class="tcx-flag">3</span>', page)
    assert 'href="#tcx-graph-break-0"' in page


def test_compiles_of_already_compiled_functions_are_captured_with_their_recompile(tour):
    document, page = _document(tour, "recompile")
    assert document["summary"]["recompiles"] == 1
    (recompiled,) = [c for c in document["compiles"] if c["recompile_reasons"]]
    (reason,) = recompiled["recompile_reasons"][0]
    assert "size mismatch" in reason["guard"]
    # g was defined in the setup cell: it is labelled too, and its source is shown.
    assert document["explore"]["source_labels"][recompiled["frame"]["file"]] == _label(tour,
                                                                                       "setup")
    assert "recompiled (" in page


def test_raising_cell_shows_the_exception_with_what_was_captured(tour):
    (error,) = tour.outputs("raises", "error")
    assert error.ename == "ValueError" and "boom" in error.evalue
    traceback = "\n".join(error.traceback)
    assert "tcexplore/notebook" not in traceback, "only the cell's frames are shown"
    document, page = _document(tour, "raises")
    assert document["error"]["type"] == "ValueError"
    assert "<script>alert(2)" not in page and "&lt;script&gt;alert(2)&lt;/script&gt;" in page


@pytest.mark.parametrize("name, option", [("bad_mode", "--mode"), ("bad_options", "--options"),
                                          ("bad_compare", "--compare")])
def test_bad_options_are_usage_errors_naming_the_option(tour, name, option):
    # IPython prints a UsageError as one line on stderr, without a traceback.
    (stderr,) = [o for o in tour.outputs(name, "stream") if o.name == "stderr"]
    assert stderr.text.startswith(f"UsageError: {option}: ")
    assert not tour.bundles(name)


def test_compare_shows_its_progress_then_the_grid_and_binds_the_comparison(tour):
    assert not [o for o in tour.outputs("compare")
                if "application/vnd.jupyter.widget-view+json" in o.get("data", {})], \
        "no widget: a saved notebook would show 'Loading widget...' in its place"
    (shown,) = tour.bundles("compare")
    grid = shown["data"][MIME]
    validate(grid)
    assert grid["kind"] == "comparison"
    assert [(r["backend"], r["status"]) for r in grid["rows"]] == [("eager", "ok"),
                                                                   ("aot_eager", "ok")]
    assert all(r["document"]["comparison"]["row"] == i for i, r in enumerate(grid["rows"]))
    # For front ends without the extension: the same grid as HTML.
    assert shown["data"]["text/html"].count("<tr") == 3  # the table's header and two rows
    updates = tour.updates["compare"]
    assert any(u.startswith("eager / default / dynamic=None: running") for u in updates)
    assert updates[-1].startswith("<tcexplore.Comparison 2 rows"), "replaced by the grid"
    assert not tour.outputs("compare", "error")
    (result,) = tour.outputs("compare", "execute_result")
    assert result["data"]["text/plain"].startswith("tensor(")


def test_assigned_names_exist_afterwards_and_the_kernel_is_alive(tour):
    assert not tour.outputs("end", "error")
    lines = tour.stdout("end").splitlines()
    # `before` was bound before the raise; `after` never ran.
    assert lines[0] == str(sorted(["h", "s", "a", "b", "r1", "r2", "before", "c", "plain",
                                   "broken", "recompiled", "failed", "cmp"]))
    assert lines[1] == "['ok', 'ok']"
    assert lines[2] == "alive 42"


def test_exploration_save_writes_the_same_page(tour):
    document, _ = _document(tour, "plain")
    saved = (tour.directory / "plain.html").read_text()
    assert saved.startswith("<!DOCTYPE html>") and "Eager vs compiled" in saved
    assert f"{_label(tour, 'plain')}, line 2" in saved


def test_explore_called_in_a_cell_labels_the_cells_it_reaches(tour):
    """Not only %%tcompile: explore() in a notebook names the cell that defines the function
    (where it breaks) and the cell that called it (the compile's call path)."""
    document, page = _document(tour, "explore_call")
    labels = document["explore"]["source_labels"]
    (brk,) = document["graph_breaks"]
    assert labels[brk["file"]] == _label(tour, "define")
    assert _label(tour, "explore_call") in labels.values()
    assert document["explore"]["sources"][brk["file"]].startswith("def halve_then_print")
    assert f"{_label(tour, 'define')}, line 3" in page
    # no cell's temporary file name, even where torch cut its start (guard trees' comments)
    assert not re.search(r"ipykernel_\d", page)
