"""A big log keeps its compiles' graphs and code whole up to a bound, and says which it left
out: the bound set low here, on a real log whose rank recompiled (two compiles)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import tcexplore
from tcexplore import traces
from tcexplore.document import validate

from ..conftest import TLPARSE_COUNTED, tlparse_counts


@pytest.fixture
def log(rank_runs):
    (path,) = (rank_runs["bigger_batch"].workdir / "trace").glob("*_rank_1_*.log")
    return path


def test_compiles_past_the_bound_keep_their_counts_and_are_named(log, monkeypatch, tmp_path):
    whole = tcexplore.load_trace(log).data
    monkeypatch.setattr(traces, "DETAIL_LIMIT", 1)  # the first compile kept whole, no other
    data = tcexplore.load_trace(log).data
    validate(data)
    first, second = data["compiles"]
    assert first["dynamo_graph"] == whole["compiles"][0]["dynamo_graph"]
    assert second["dynamo_graph"]["nodes"] == [] and second["dynamo_graph"]["text"] == ""
    assert second["dynamo_graph"]["chars"] == whole["compiles"][1]["dynamo_graph"]["chars"]
    assert second["recompile_reasons"] == whole["compiles"][1]["recompile_reasons"]
    assert second["guards"] == whole["compiles"][1]["guards"]
    assert all(not o["text"] and o["truncated"] for o in second["output_codes"])
    counts = {k: data["summary"][k] for k in TLPARSE_COUNTED}
    assert counts == {k: whole["summary"][k] for k in TLPARSE_COUNTED}
    assert counts == tlparse_counts(log, tmp_path / "tl")
    (said,) = [u for u in data["capture"]["unavailable"]
               if u["field"] == "compiles[].graphs_and_code"]
    assert f"1 compile past that ({second['id']})" in said["reason"]
    assert "--compile ID` keeps one in full" in said["reason"]


def test_a_compile_named_is_kept_whole_wherever_it_lies(log, monkeypatch):
    monkeypatch.setattr(traces, "DETAIL_LIMIT", 1)
    data = traces.data_from_log(traces.read_trace_log(log), keep=["0/1"])
    assert all(c["dynamo_graph"]["nodes"] for c in data["compiles"])
    assert "compiles[].graphs_and_code" not in {u["field"] for u in data["capture"]["unavailable"]}


def test_a_live_capture_and_a_small_log_keep_everything(log):
    data = tcexplore.load_trace(log).data
    assert all(c["dynamo_graph"]["nodes"] for c in data["compiles"])
    assert "compiles[].graphs_and_code" not in {u["field"] for u in data["capture"]["unavailable"]}


def test_import_says_what_it_left_out_in_one_line(log, tmp_path):
    code = ("import sys; from tcexplore import traces; traces.DETAIL_LIMIT = 1; "
            "from tcexplore.cli import main; sys.exit(main(sys.argv[1:]))")
    proc = subprocess.run([sys.executable, "-c", code, "import", str(log), "--json",
                           str(tmp_path / "doc.json")], capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if "kept in full up to" in x]
    assert line.startswith(f"tcexplore import: {log}: the log's graphs and Inductor code")
