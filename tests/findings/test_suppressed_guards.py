"""Guards torch suppressed are not guards (#43 item 1): the Shapes tab lists, for each size,
the guards torch kept (its guard tree, ``dynamo_cpp_guards_str``) at the user's lines; a
``guard_added`` that torch evaluated while guards were suppressed (compiling the backward)
is not one. A live capture and the import of the same run's TORCH_TRACE agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tcexplore.decided import load_trace

from ..conftest import run_program

PROGRAM = Path(__file__).parents[1] / "findings_programs" / "suppressed_guards.py"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_program(str(PROGRAM), tmp_path_factory.mktemp("suppressed"))


def _shapes(document: dict) -> dict[str, list[tuple]]:
    return {f["shape"]["name"]: [(g["expr"], g["line"], g["kind"]) for g in f["shape"]["guards"]]
            for f in document["findings"] if f["kind"] == "dynamic_shape"}


def test_a_guard_evaluated_while_suppressed_is_not_listed_as_guarding_its_size(run):
    assert run.returncode == 0, run.stderr[-3000:]
    (record,) = run.document["compiles"]
    evaluated = [g["expr"] for g in record["symbolic_guards"]]
    assert "Eq(s27, 16)" in evaluated, "torch no longer evaluates the suppressed guard"
    assert "Eq(s27, 16)" not in record["guards_text"] and "== 16" not in record["guards_text"]
    rows = _shapes(run.document)["ids.size(1)"]
    assert not any("== 16" in expr for expr, _, _ in rows), rows
    assert rows == [("2 <= ids.size(1) <= 100", 14, "guard")], rows


def test_every_listed_guard_is_one_of_the_guard_tree(run):
    kept = {g["expression"] for g in run.document["compiles"][0]["guards"]}
    for f in run.document["findings"]:
        for g in (f.get("shape") or {}).get("guards", []):
            if g["kind"] == "guard":
                assert any(re.sub(r"L\['(\w+)'\]\.size\(\)\[(\d)\]", r"\1.size(\2)", k) == g["expr"]
                           for k in kept), g


def test_the_import_of_the_same_runs_trace_lists_the_same_guards(run):
    imported = load_trace(run.trace_log).data
    assert _shapes(imported) == _shapes(run.document)
