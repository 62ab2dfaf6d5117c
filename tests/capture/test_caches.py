"""Caches as the program has them: a capture changes neither torch's cache settings nor its
cache keys, so entries written without tcexplore serve a capture and entries written
under one serve a run without it; tcexplore's own recompiles are not taken for warm
starts. Real Inductor compiles of a matmul (an extern kernel: no C++ build, seconds)."""

from __future__ import annotations

import logging

import pytest
import torch

import tcexplore
from tcexplore import _torch_compat
from tcexplore.document import validate
from tcexplore.findings.unmapped import HIT_WITHOUT_PROVENANCE


def _matmul(x, w):
    return x @ w


def _inputs():
    return torch.randn(8, 8), torch.randn(8, 8)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """An empty Inductor cache directory for the test, torch's state reset around it."""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))
    torch.compiler.reset()
    yield tmp_path / "inductor"
    torch.compiler.reset()


class _CacheEvents(logging.Handler):
    """torch's own word on each cache lookup (its structured trace), no tcexplore listening."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.results: list[str] = []

    def emit(self, record):
        name = (getattr(record, "metadata", {}).get("artifact") or {}).get("name", "")
        if name.startswith(("fx_graph_cache_", "aotautograd_cache_")):
            self.results.append(name)


def _heard_by_torch(fn):
    logger = logging.getLogger("torch.__trace")
    handler, level = _CacheEvents(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        fn()
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return handler.results


def test_entries_written_without_tcexplore_serve_a_capture_and_the_settings_come_back(cache_dir):
    before = (_torch_compat.settings_snapshot(), _torch_compat.cache_settings())
    torch.compile(_matmul)(*_inputs())  # the program alone: writes the entries
    torch.compiler.reset()
    with tcexplore.capture() as session:
        torch.compile(_matmul)(*_inputs())
    assert (_torch_compat.settings_snapshot(), _torch_compat.cache_settings()) == before
    (record,) = session.document.compiles
    assert record["status"] == "cache_hit", record["cache"]
    assert {(e["cache"], e["result"]) for e in record["cache"]} >= {("fx_graph", "hit")}
    data = session.document.data
    assert data["capture"]["bypass_caches"] is False
    assert data["capture"]["caches"] == before[1]
    assert record["cache_hit"]["cold"] is None  # written by a run this document did not see
    assert "Inductor's lowering and code generation" in record["cache_hit"]["note"]
    # the entry was written without provenance: the hit has no kernel -> node mapping, said
    assert record["cache_hit"]["lacks"] == ["codegen", "provenance"]
    (output,) = record["output_codes"]
    assert output["unmapped_nodes"] == ["mm"] and output["unmapped_reason"] == (
        HIT_WITHOUT_PROVENANCE)
    (found,) = [f for f in data["findings"] if f["kind"] == "cache"]
    assert found["title"].startswith(f"Warm start: compile {record['id']} (_matmul) hit")
    validate(data)


def test_entries_written_under_a_capture_serve_the_program_alone(cache_dir):
    with tcexplore.capture() as session:
        torch.compile(_matmul)(*_inputs())
    assert {e["result"] for c in session.document.compiles for e in c["cache"]} == {"miss"}
    torch.compiler.reset()
    heard = _heard_by_torch(lambda: torch.compile(_matmul)(*_inputs()))
    assert "fx_graph_cache_hit" in heard and "fx_graph_cache_miss" not in heard, heard


def test_a_cold_capture_misses_and_says_nothing_about_caches(cache_dir):
    torch.compile(_matmul)(*_inputs())
    torch.compiler.reset()
    with tcexplore.capture(bypass_caches=True) as session:
        torch.compile(_matmul)(*_inputs())
    (record,) = session.document.compiles
    assert record["status"] == "ok" and record["cache"] == []
    data = session.document.data
    assert data["capture"]["bypass_caches"] is True
    assert not [f for f in data["findings"] if f["kind"] == "cache"]


def test_a_second_exploration_is_not_a_warm_start(cache_dir):
    """explore() compiles afresh each time (its own backend) where the program would reuse
    its compiled code: the second one hits what the first wrote, and that is tcexplore's
    doing, not the user's warm start."""
    options = {"measure_timing": False, "find_divergence": False}
    first = tcexplore.explore(_matmul, *_inputs(), **options).document.data
    second = tcexplore.explore(_matmul, *_inputs(), **options).document.data
    assert {e["result"] for c in first["compiles"] for e in c["cache"]} == {"miss"}
    hits = [e for c in second["compiles"] for e in c["cache"] if e["result"] == "hit"]
    assert hits and all(e["earlier_exploration"] for e in hits)
    (record,) = second["compiles"]
    assert "an earlier exploration in this process wrote" in record["cache_hit"]["note"]
    assert not [f for f in second["findings"] if f["kind"] == "cache"]
    validate(second)


def test_compiles_across_reset_are_records_of_their_own_in_order(cache_dir):
    def twice():
        torch.compile(_matmul)(*_inputs())
        torch.compiler.reset()
        torch.compile(_matmul)(*_inputs())

    with tcexplore.capture() as session:
        twice()
    first, second = session.document.compiles
    assert (first["id"], first["generation"]) == ("0/0", 1)
    assert (second["id"], second["generation"]) == ("g2:0/0", 2)
    assert first["status"] == "ok" and second["status"] == "cache_hit"
    assert second["cache_hit"]["cold"] == "0/0"
    assert [p["name"] for p in second["phases"]][:1] == ["dynamo"]  # its own phases only
    assert len(first["phases"]) == 1
    assert session.document.summary["graphs"] == 2


def test_a_tcompile_cell_run_again_is_not_a_warm_start_and_a_cold_one_is_asked_for(cache_dir):
    """A cell is compiled afresh each run (a new function): its second run hits what the
    first wrote, which is tcexplore's doing; --bypass-caches is the cold capture."""
    pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    setup = "import torch\n%load_ext tcexplore\nx, w = torch.randn(8, 8), torch.randn(8, 8)"
    assert shell.run_cell(setup).success
    runs = {}
    for name, flags in (("first", ""), ("again", ""), ("cold", " --bypass-caches")):
        result = shell.run_cell(f"%%tcompile --no-eager --out {name}{flags}\ny = x @ w")
        assert result.success, result.error_in_exec
        runs[name] = shell.user_ns[name].document.data
    (again,) = runs["again"]["compiles"]
    hits = [e for e in again["cache"] if e["result"] == "hit"]
    assert hits and all(e["earlier_exploration"] for e in hits)
    assert not [f for f in runs["again"]["findings"] if f["kind"] == "cache"]
    (cold,) = runs["cold"]["compiles"]
    assert cold["cache"] == [] and runs["cold"]["capture"]["bypass_caches"] is True
