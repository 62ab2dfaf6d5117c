"""Ranks at scale: read in parallel on the executor the user has (a process pool, a Dask
cluster), the parent holding digests only and rank documents written beside the
multi-rank document; alike ranks grouped, divergence first, reports bounded."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor

import pytest

import tcexplore
from tcexplore.render import ranks_html


def _alike(view):
    return [(f["kind"], f["ranks"], f["title"]) for f in view.divergence], view.data["rank_groups"]


def test_ranks_read_on_a_process_pool_or_a_dask_cluster_find_what_one_process_finds(
        rank_runs, tmp_path):
    trace = rank_runs["bigger_batch"].workdir / "trace"
    alone = tcexplore.ranks(trace, jobs=1, documents=tmp_path / "alone" / "ranks.json")
    with ProcessPoolExecutor(2) as pool:
        pooled = tcexplore.ranks(trace, executor=pool, documents=tmp_path / "pool" / "ranks.json")
    distributed = pytest.importorskip("distributed", reason="dask's distributed: test extra")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                                  processes=True) as cluster, distributed.Client(cluster) as client:
        dasked = tcexplore.ranks(trace, executor=client.get_executor(),
                                 documents=tmp_path / "dask" / "ranks.json")
    assert _alike(pooled) == _alike(dasked) == _alike(alone)
    assert alone.divergence[0]["ranks"] == [1]
    # The parent holds no rank document: each was written beside the multi-rank document.
    assert sorted(p.name for p in (tmp_path / "dask").iterdir()) == [
        "ranks.rank0.json", "ranks.rank1.json"]
    assert dasked._documents == {} and all(e["document"] is None for e in dasked.data["ranks"])
    assert dasked.document(1).summary["recompiles"] == 1  # read from its file when asked
    saved = tcexplore.load(dasked.save(tmp_path / "ranks.json"))
    assert saved.document(1).summary["recompiles"] == 1  # embedded whole when saved


@pytest.fixture(scope="module")
def many_ranks(rank_runs, tmp_path_factory):
    """64 ranks of one job: rank 63 recompiles as rank 1 of `bigger_batch` did, the others
    run as its rank 0 did (the documents of that real run, renumbered)."""
    root = tmp_path_factory.mktemp("many-ranks")
    run = rank_runs["bigger_batch"]
    documents = {r: json.loads((run.workdir / f"out.rank{r}.json").read_text()) for r in (0, 1)}
    for rank in range(64):
        data = documents[1 if rank == 63 else 0]
        data["distributed"] = {**data["distributed"], "rank": rank, "local_rank": rank,
                               "world_size": 64}
        (root / f"job.rank{rank}.json").write_text(json.dumps(data))
    return tcexplore.ranks(root / "job.json", jobs=2), root


def test_alike_ranks_are_grouped_and_the_divergent_one_comes_first(many_ranks):
    view, root = many_ranks
    assert view.data["rank_groups"] == [{"ranks": list(range(63)), "label": "ranks 0-62"},
                                        {"ranks": [63], "label": "rank 63"}]
    (finding,) = view.divergence
    assert finding["kind"] == "recompile" and finding["ranks"] == [63]
    page = view.save(root / "ranks.html").read_text()
    assert page.index("Divergence (1)") < page.index("Ranks side by side")
    assert "64 ranks in 2 columns" in page and "<th>ranks 0-62 (alike)</th>" in page
    assert page.count('class="tcx-rank-report"') == 2  # one report per group
    assert '<a href="#tcx-rank-0">ranks 0-62</a>' in page  # many ranks: one linked range


def test_the_ranks_report_holds_a_bounded_number_of_rank_reports(many_ranks, monkeypatch):
    view, _ = many_ranks
    monkeypatch.setattr(ranks_html, "MAX_RANK_REPORTS", 1)
    page = ranks_html.render_ranks_html(view.data, view.document)
    assert page.count('class="tcx-rank-report"') == 1
    assert "Ranks without a report here (63)" in page and "job.rank0.json" in page
