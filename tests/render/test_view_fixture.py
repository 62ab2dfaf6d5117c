"""One view model: every label, mark and headline a view shows is decided once in Python and
stored in the document; the HTML report and the extension draw it (issue 42).

tests/fixtures/views holds documents of real runs (a %%tcompile cell with graph breaks and
recompiles, a timed exploration, a compare() grid, two ranks; regenerate.py) and
``expected.json``, what every view shows of them. This file checks that Python still
decides exactly that and that the HTML report draws it;
extension/src/__tests__/views.spec.ts checks the extension against the same file. No
compile runs here: the fixture is read in milliseconds.
"""

from __future__ import annotations

import copy
import html
import importlib.util
import json
import re
from pathlib import Path

import pytest

from tcexplore.common.relabel import relabel
from tcexplore.findings import decide
from tcexplore.findings.comparison import decide_grid
from tcexplore.findings.source_marks import source_marks
from tcexplore.ranks.build import headline
from tcexplore.render.comparison import render_comparison_html
from tcexplore.render.html import render_html
from tcexplore.render.ranks_html import render_ranks_html

FIXTURE = Path(__file__).parents[1] / "fixtures" / "views"


def _read(name: str) -> dict:
    return json.loads((FIXTURE / name).read_text())


@pytest.fixture(scope="module")
def documents() -> dict[str, dict]:
    return {name: _read(f"{name}.json") for name in ("cell", "timed", "grid", "ranks")}


@pytest.fixture(scope="module")
def expected() -> dict:
    return _read("expected.json")


def _shown(documents: dict[str, dict]) -> dict:
    """regenerate.py's ``shown``, loaded from its file: every fixture folder has a
    regenerate.py, and another test may have imported one as ``regenerate`` already."""
    spec = importlib.util.spec_from_file_location("views_regenerate", FIXTURE / "regenerate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.shown(**documents)


def test_the_fixture_holds_what_python_decides(documents, expected):
    again = {name: copy.deepcopy(doc) for name, doc in documents.items()}
    decide(again["cell"])
    decide(again["timed"])
    grid = again["grid"]
    for row in grid["rows"]:
        row.pop("speedup_words")
    grid.update(decide_grid(grid["rows"]))
    ranks = again["ranks"]
    ranks["headline"] = headline(
        ranks["ranks"], ranks["world_size"], ranks["divergence"], ranks.get("inputs")
    )
    assert _shown(again) == _shown(documents) == expected


def _source_rows(page: str) -> dict[str, dict[int, list[list[str]]]]:
    """Each source table of the report: its file's label -> line -> [[kind, label]]."""
    out: dict[str, dict[int, list[list[str]]]] = {}
    for label, table in re.findall(
        r"<p><strong>([^<]*)</strong></p><table[^>]*tcx-source-table[^>]*>(.*?)</table>", page, re.S
    ):
        rows = {}
        for number, marks in re.findall(
            r"<tr><td><span[^>]*>(\d+)</span></td><td>.*?</td><td>(.*?)</td></tr>", table, re.S
        ):
            found = re.findall(
                r'<(?:a|span) class="tcx-mark tcx-mark-([\w-]+)"[^>]*>(.*?)</(?:a|span)>', marks
            )
            if found:
                rows[int(number)] = [[kind, html.unescape(text)] for kind, text in found]
        out[html.unescape(label)] = rows
    return out


def test_the_report_marks_each_source_line_as_stored(documents, expected):
    page = render_html(documents["cell"])
    drawn = _source_rows(page)
    for f in expected["source"]:
        want = {line: marks for line, _, marks in f["lines"] if marks}
        assert drawn[f["label"]] == want, f["label"]
    flagged = {(f["label"], line) for f in expected["source"] for line, flag, _ in f["lines"] if flag}
    assert flagged  # breaks and recompiles: the line number is flagged
    assert page.count('<span class="tcx-flag">') == len(flagged)


def test_recompiles_are_marked_at_the_failed_guards_line_not_only_the_frames(expected):
    """The case the two views disagreed on: torch names the line whose value a failed guard
    checks; the frame's line stands in only where it names none."""
    cell2 = next(f for f in expected["source"] if f["label"] == "cell [2]")
    marked = {line for line, _, marks in cell2["lines"] for kind, _ in marks if kind == "recompile"}
    frames = {r["frame"]["line"] for r in expected["recompiled"]}
    assert marked - frames and marked & frames


def test_graph_ops_count_operations_only(documents, expected):
    """call_* nodes: a line's inputs and the output are not operations of the graph."""
    calls = {}
    for record in documents["cell"]["compiles"]:
        for node in (record.get("dynamo_graph") or {}).get("nodes") or []:
            if node["op"].startswith("call_") and node.get("source"):
                key = (node["source"]["file"], node["source"]["line"])
                calls[key] = calls.get(key, 0) + 1
    stored = {
        (f["file"], line["line"]): mark["per_compile"]
        for f in documents["cell"]["source_marks"]["files"]
        for line in f["lines"]
        for mark in line["marks"]
        if mark["kind"] == "op"
    }
    assert {k: sum(c["count"] for c in v) for k, v in stored.items()} == calls


def test_the_report_shows_the_recompiled_functions_and_failed_guards_as_stored(documents, expected):
    page = html.unescape(render_html(documents["cell"]))
    for group in expected["recompiled"]:
        for guard in group["guards"]:
            assert f"{guard['guard']} (×{guard['count']})" in page
    for _, guard, want, got in expected["failed_guards"]:
        if want is not None:
            assert f"<td><code>{guard}</code></td><td>{want}</td><td>{got}</td>" in page


def test_the_report_says_the_timing_verdict_not_the_ratio_of_medians(documents, expected):
    page = html.unescape(render_html(documents["timed"]))
    assert expected["timing"]["headline"] in page
    assert expected["timing"]["short"] == "no clear difference"
    assert expected["listings"]["timed"]["detail"].endswith("no clear difference · outputs match")


def test_the_grid_page_draws_the_stored_headline_best_row_and_speedups(documents, expected):
    page = html.unescape(render_comparison_html(documents["grid"], summary_only=True))
    assert expected["grid"]["headline"] in page
    for text in expected["grid"]["speedups"]:
        assert text in page
    rows = re.findall(r"<tr( class=\"tcx-best\")?><td>", page.split("tcx-comparison-table", 1)[1])
    winning = expected["grid"]["winning_row"]  # none where every row is slower than eager
    assert [i for i, best in enumerate(rows) if best] == ([] if winning is None else [winning])
    old = {k: v for k, v in documents["grid"].items() if k not in ("headline", "best_row")}
    assert "saved before tcexplore stored its decisions" in render_comparison_html(old)


def test_the_ranks_page_draws_the_stored_headline(documents, expected):
    page = html.unescape(render_ranks_html(documents["ranks"], lambda rank: None))
    assert expected["ranks"] in page
    old = {k: v for k, v in documents["ranks"].items() if k != "headline"}
    assert "saved before tcexplore stored its headline" in render_ranks_html(old, lambda r: None)


@pytest.mark.invariants_exempt(
    "a document as an earlier version saved it: its stored findings are kept as saved (the "
    "fixture's titles predate #43's user words for resume functions)"
)
def test_a_document_saved_before_the_marks_gets_them_when_loaded(tmp_path, documents):
    import tcexplore

    old = copy.deepcopy(documents["cell"])
    for key in ("source_marks", "listing", "break_lines", "resume_labels", "traced_functions"):
        del old[key]
    page = render_html(old)  # not loaded: the report says what is missing
    assert "saved before tcexplore stored its source marks" in page
    (tmp_path / "old.json").write_text(json.dumps(old))
    loaded = tcexplore.load(tmp_path / "old.json").data
    for key in ("source_marks", "listing", "break_lines", "resume_labels", "traced_functions"):
        assert loaded[key] == documents["cell"][key], key


def test_source_files_fold_library_files_and_files_only_guards_name(documents):
    """The user's files first, cells in execution order; library code (capture's
    library_files) and files only guards point to (torch cuts their paths) folded after."""
    data = copy.deepcopy(documents["cell"])
    guard = {"type": "LAMBDA_GUARD", "source": None, "user_code": "return F.linear(x)"}
    lib = "/venv/lib/python3.11/site-packages/transformers/lin.py"
    data["compiles"][0]["guards"] += [
        {**guard, "expression": "lib", "user_location": {"file": lib, "line": 5, "code": "x"}},
        {**guard, "expression": "cut", "user_location": {"file": "nn/linear.py", "line": 9,
                                                         "code": "return input"}},
    ]
    data["library_files"] = [*data.get("library_files", []), lib]
    files = source_marks(data)
    assert [(f["label"], f["folded"]) for f in files["files"]][-2:] == [
        ("transformers/lin.py", True), ("nn/linear.py", True)]
    assert [f["label"] for f in files["files"] if not f["folded"]] == ["cell [2]", "cell [3]"]
    assert files["folded"] == (
        "1 library file (transformers) · 1 file only guards point to (torch shortens their paths)")


def test_relabel_names_a_cell_by_its_label_also_where_torch_cut_its_name_never_another_file():
    labels = {"/tmp/ipykernel_1/123.py": "cell [5]"}
    assert relabel(
        'at /tmp/ipykernel_1/123.py:3; guard # mp/ipykernel_1/123.py:4 in f; lib/123.py:5; '
        'File "/tmp/ipykernel_1/123.py", line 6', labels
    ) == ('at cell [5], line 3; guard # cell [5], line 4 in f; lib/123.py:5; '
          'File "cell [5]", line 6')
