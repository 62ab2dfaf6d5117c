"""Distributed runs on CPU: two gloo ranks under torchrun, one document per rank, and the
multi-rank view of where they diverge (from the documents and from the ranks' logs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tcexplore
from tcexplore.document import DocumentError, validate
from tcexplore.measure.exploration import MIME_TYPE
from tcexplore.render.ranks_bundle import ranks_mime_bundle

from ..conftest import RANK_SCENARIOS, TLPARSE_COUNTED, tlparse_counts


def _documents(run):
    return {r: json.loads((run.workdir / f"out.rank{r}.json").read_text()) for r in (0, 1)}


@pytest.mark.parametrize("name", RANK_SCENARIOS)
def test_each_rank_writes_its_own_document_naming_rank_world_size_and_backend(rank_runs, name):
    run = rank_runs[name]
    assert not (run.workdir / "out.json").exists()
    for rank, document in _documents(run).items():
        validate(document)
        assert document["distributed"] == {"rank": rank, "world_size": 2, "backend": "gloo",
                                           "local_rank": rank, "source": "process_group"}
        assert document["summary"]["graphs"] >= 1  # every scenario compiles real graphs


def test_divergence_names_the_recompiling_rank_and_its_failed_guard(rank_runs):
    view = tcexplore.ranks(rank_runs["bigger_batch"].workdir / "out.json")
    (finding,) = view.divergence
    assert finding["kind"] == "recompile" and finding["ranks"] == [1]
    assert finding["compile_id"] == "0/1" and "rank 1 recompiled `step`" in finding["title"]
    (evidence,) = finding["evidence"]
    assert evidence["rank"] == 1
    assert "size mismatch at index 0. expected 4, actual 6" in evidence["text"]


@pytest.mark.parametrize("name", ["alike", "ddp", "fsdp2"])
def test_ranks_that_ran_alike_show_no_divergence(rank_runs, name):
    view = tcexplore.ranks(rank_runs[name].workdir / "out.json")
    assert view.ranks == [0, 1] and view.divergence == []


def test_a_graph_break_on_one_rank_moves_its_collective_into_another_graph(rank_runs):
    view = tcexplore.ranks(rank_runs["print_on_rank0"].workdir / "out.json")
    found = {f["kind"]: f for f in view.divergence}
    assert set(found) == {"collectives", "compile_ids", "graph_breaks", "graph"}
    assert found["graph_breaks"]["ranks"] == [0] and "rank_step.py:31" in found["graph_breaks"]["title"]
    assert found["compile_ids"]["ranks"] == [0] and found["compile_ids"]["compile_id"] == "1/0"
    groups = {tuple(g["ranks"]): g["value"] for g in found["collectives"]["groups"]}
    assert "`step`: none" in groups[(0,)] and "all_reduce → wait_tensor" in groups[(0,)]
    assert "`step`: all_reduce → wait_tensor" in groups[(1,)]
    assert "all_reduce" in found["graph"]["evidence"][0]["text"]


@pytest.mark.parametrize("name", RANK_SCENARIOS)
def test_each_rank_log_imports_to_the_counts_of_its_document_and_tlparse(rank_runs, name,
                                                                         tmp_path):
    run = rank_runs[name]
    for rank, document in _documents(run).items():
        imported = tcexplore.load_trace(run.workdir / "trace", rank=rank).data
        assert imported["distributed"]["rank"] == rank
        assert imported["summary"] == document["summary"]  # unread_events 0 in both
        counts = tlparse_counts(Path(imported["capture"]["path"]), tmp_path / f"tl{rank}")
        assert {k: imported["summary"][k] for k in TLPARSE_COUNTED} == counts


@pytest.mark.parametrize("name", ["bigger_batch", "print_on_rank0"])
def test_the_ranks_logs_give_the_findings_of_the_ranks_documents(rank_runs, name):
    run = rank_runs[name]
    from_documents = tcexplore.ranks(run.workdir / "out.json").divergence
    from_logs = tcexplore.ranks(run.workdir / "trace")
    assert [(f["kind"], f["ranks"], f["title"]) for f in from_logs.divergence] == \
        [(f["kind"], f["ranks"], f["title"]) for f in from_documents]
    entry = from_logs.data["ranks"][0]
    assert entry["source"]["kind"] == "trace"
    assert "distributed.backend" in {u["field"] for u in entry["capture"]["unavailable"]}


def test_ranks_cli_writes_the_document_and_the_report(rank_runs, tmp_path):
    run = rank_runs["bigger_batch"]
    proc = subprocess.run(
        [sys.executable, "-m", "tcexplore", "ranks", str(run.workdir / "out.json"),
         "--json", str(tmp_path / "ranks.json"), "--html", str(tmp_path / "ranks.html")],
        check=False, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "[recompile] rank 1 recompiled `step`" in proc.stderr
    loaded = tcexplore.load(tmp_path / "ranks.json")
    assert isinstance(loaded, tcexplore.Ranks) and loaded.divergence[0]["ranks"] == [1]
    assert loaded.document(1).summary["recompiles"] == 1  # embedded whole
    page = (tmp_path / "ranks.html").read_text()
    assert page.index("Divergence (1)") < page.index("Ranks side by side")
    assert 'id="tcx-rank-1"' in page and 'id="r1-tcx-compile-0/1"' in page
    assert "expected 4, actual 6" in page


def test_documents_over_the_embedding_limit_are_left_out_and_marked(rank_runs, tmp_path):
    view = tcexplore.ranks(rank_runs["alike"].workdir / "out.json", embed_limit=0)
    for entry in view.data["ranks"]:
        assert entry["document"] is None
        assert entry["document_left_out"]["bytes"] > 0
        assert "out.rank" in entry["document_left_out"]["reason"]
    assert view.document(0) is not None  # read from its file
    saved = tcexplore.load(view.save(tmp_path / "ranks.json"))
    assert saved.data["ranks"][0]["document"] is None and saved.divergence == []
    assert saved.document(0).summary == view.document(0).summary  # out.rank0.json, still there


def test_the_notebook_output_carries_rank_documents_up_to_its_limit(rank_runs):
    view = tcexplore.ranks(rank_runs["bigger_batch"].workdir / "out.json")
    bundle = view._repr_mimebundle_()
    shown = bundle[MIME_TYPE]
    assert shown["kind"] == "ranks" and shown["divergence"] == view.divergence
    assert all(entry["document"]["schema"] == "tcexplore/1" for entry in shown["ranks"])
    assert "rank 1 recompiled" in bundle["text/html"] and "Ranks" in bundle["text/plain"]
    small = ranks_mime_bundle(view.data, view.document, "", limit=1)[MIME_TYPE]
    assert all(e["document"] is None and e["document_left_out"]["bytes"] for e in small["ranks"])


def test_a_missing_rank_is_a_finding(rank_runs):
    run = rank_runs["alike"]
    view = tcexplore.ranks(run.workdir / "out.rank0.json")
    (finding,) = view.divergence
    assert finding["kind"] == "ranks" and finding["ranks"] == [1]


def test_bad_inputs_are_clear_errors(undistributed_document, tmp_path):
    with pytest.raises(DocumentError, match="does not say which rank"):
        tcexplore.ranks(undistributed_document)
    with pytest.raises(DocumentError, match="no such file"):
        tcexplore.ranks(tmp_path / "nothing.json")


def test_a_rank_given_twice_is_read_from_its_document(rank_runs):
    """Its document and its log: the document is read (a capture holds more), and said."""
    run = rank_runs["alike"]
    view = tcexplore.ranks(run.workdir / "out.rank0.json", run.workdir / "trace")
    assert [(e["rank"], e["source"]["kind"]) for e in view.data["ranks"]] == [
        (0, "document"), (1, "trace")]
    (finding,) = view.divergence
    assert finding["kind"] == "inputs" and finding["ranks"] == [0]
    assert finding["title"].startswith("2 files claim rank 0: out.rank0.json read (a document")


@pytest.fixture
def undistributed_document(tmp_path):
    """A document of a process outside any distributed job (no rank)."""
    with tcexplore.capture() as session:
        pass
    return session.document


def test_a_document_without_its_rank_takes_it_from_its_file_name(rank_runs, tmp_path):
    """Documents written before they carried `distributed` were still named out.rank<N>.json."""
    for rank in (0, 1):
        data = json.loads((rank_runs["bigger_batch"].workdir / f"out.rank{rank}.json").read_text())
        del data["distributed"]
        (tmp_path / f"old.rank{rank}.json").write_text(json.dumps(data))
    view = tcexplore.ranks(tmp_path / "old.json")
    assert view.ranks == [0, 1] and view.divergence[0]["ranks"] == [1]
