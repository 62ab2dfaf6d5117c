"""Findings: decided once in Python when a document is built, stored in it, drawn by both
renderers (the last test: the extension's Overview, Shapes tab and Source marks in JupyterLab
with no kernel, screenshots in the `shots` folder). Real captures for the corpus and two
small programs; hand-built documents for the sections other capture paths add
(not_compiled, timing.machine, cudagraphs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tcexplore
from tcexplore.decided import load_trace
from tcexplore.document import validate
from tcexplore.findings import KINDS, compute_findings
from tcexplore.findings.graph_break_audit import graph_break_audit
from tcexplore.render.html import render_html

from ..conftest import run_program
from ..extension.test_lab_extension import REASON as LAB_REASON
from ..inductor_cache import fresh_inductor_cache
from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, write_notebook

HERE = Path(__file__).parents[1]
FIXTURE = HERE / "fixtures" / "graph_break_audit"
PROGRAMS = HERE / "findings_programs"
BREAK_PROGRAMS = ("graph_break_data_dependent", "graph_break_explicit", "graph_break_print",
                  "graph_break_two_callers")


def _fixture() -> dict:
    return json.loads((FIXTURE / "document.json").read_text())


def _kinds(findings: list[dict]) -> list[str]:
    return [f["kind"] for f in findings]


def _sites(findings: list[dict]) -> list[tuple]:
    return [((f["locations"] or [{}])[0].get("file"), (f["locations"] or [{}])[0].get("line"),
             f["count"]) for f in findings if f["kind"] == "graph_break"]


def test_the_extensions_fixture_holds_what_python_computes():
    """breaks.spec.ts checks the Overview lists findings.json as it is: both pinned here."""
    assert json.loads((FIXTURE / "findings.json").read_text()) == compute_findings(_fixture())


@pytest.mark.parametrize("name", BREAK_PROGRAMS)
def test_graph_break_findings_match_the_audit_site_for_site_live_and_imported(program_runs, name):
    run = program_runs[name]
    sites = [(s["file"], s["line"], s["count"]) for s in graph_break_audit(run.document)]
    assert sites and _sites(run.document["findings"]) == sites
    imported = load_trace(run.trace_log).data
    assert _sites(imported["findings"]) == sites
    assert _kinds(imported["findings"]) == _kinds(run.document["findings"])


def test_saved_documents_keep_findings_and_older_ones_get_them_on_load(tmp_path):
    document = tcexplore.Document(_fixture() | {"findings": compute_findings(_fixture())})
    path = document.save(tmp_path / "doc.json")
    assert tcexplore.load(path).data["findings"] == document.data["findings"]
    old = _fixture()
    assert "findings" not in old
    (tmp_path / "old.json").write_text(json.dumps(old))
    assert tcexplore.load(tmp_path / "old.json").data["findings"] == compute_findings(old)


def test_old_document_report_says_findings_are_missing():
    page = render_html(tcexplore.Document(_fixture()))
    assert "saved before tcexplore recorded its findings" in page


@pytest.fixture(scope="session")
def dynamic_run(tmp_path_factory):
    """Caches as the program has them, in a fresh cache directory (run_program's): a cold
    run, so they miss, which is no finding."""
    return run_program(str(PROGRAMS / "dynamic_two_ifs.py"), tmp_path_factory.mktemp("dyn"))


def test_dynamic_shape_names_the_size_its_change_and_both_guarding_lines(dynamic_run):
    document = dynamic_run.document
    validate(document)
    (shape,) = [f for f in document["findings"] if f["kind"] == "dynamic_shape"]
    assert shape["title"].startswith("x.size(0) became dynamic (s")
    assert "when it changed from 8 to 16" in shape["title"]
    assert [(loc["line"], loc["function"]) for loc in shape["locations"]] == [(6, "f"), (8, "f")]
    # the guards torch kept, as its guard tree has them (the range joins the `if`'s bound)
    assert [g["expr"] for g in shape["shape"]["guards"]] == ["2 <= x.size(0) <= 100",
                                                            "(x.size(0) % 2) == 0"]
    assert "mark_dynamic" in shape["advice"] and "torch._check" in shape["advice"]
    recompile = next(f for f in document["findings"] if f["kind"] == "recompile")
    assert {e.get("compile") for e in recompile["evidence"]} & {e.get("compile") for e in shape["evidence"]}
    program = str(PROGRAMS / "dynamic_two_ifs.py")
    with_source = document | {"explore": {"sources": {program: Path(program).read_text()}}}
    page = render_html(tcexplore.Document(with_source, check=False))
    assert 'id="tcx-shapes"' in page and page.count('class="tcx-mark tcx-mark-shape"') == 2


def test_nothing_compiled_is_never_all_clear():
    empty = {"summary": {"graphs": 0}, "compiles": [], "graph_breaks": []}
    assert _kinds(compute_findings(empty)) == ["nothing_compiled"]
    skipped = empty | {"not_compiled": [{"function": "step", "file": "t.py", "line": 3,
                                         "category": "skipfiles", "reason": "in torch.optim",
                                         "advice": "compile the model, not the step"}]}
    (found,) = compute_findings(skipped)
    assert found["kind"] == "nothing_compiled" and found["severity"] == "warning"
    assert "step ran eagerly" in found["title"] and found["locations"][0]["line"] == 3


def test_a_timing_finding_on_a_busy_machine_is_a_warning():
    timing = {"eager": {"median_ms": 2.0, "iqr_ms": 0.01}, "compiled": {"median_ms": 1.0, "iqr_ms": 0.01},
              "speedup": 2.0, "speedup_interval": [1.9, 2.1], "break_even_calls": 10.2}
    document = _fixture() | {"timing": timing}
    (calm,) = [f for f in compute_findings(document) if f["kind"] == "timing"]
    assert calm["severity"] == "ok" and "pays back after 11 calls" in calm["title"]
    busy = _fixture() | {"timing": timing | {"machine": {"busy": True, "reasons": ["load 7.5 on 2 cores"]}}}
    (warned,) = [f for f in compute_findings(busy) if f["kind"] == "timing"]
    assert warned["severity"] == "warning" and "load 7.5 on 2 cores" in warned["details"][-1]


def test_cudagraph_skip_says_the_share_left_outside():
    document = _fixture()
    document["compiles"][0]["cudagraphs"] = {
        "partitions": [{"index": 0, "nodes": 3, "cudagraphable": True},
                       {"index": 1, "nodes": 1, "cudagraphable": False}],
        "skips": [{"reason": "mutated inputs (1 instances)",
                   "user_stack": [{"file": "m.py", "line": 7, "function": "f"}]}],
        "recordings": 0}
    (found,) = [f for f in compute_findings(document) if f["kind"] == "cudagraph_skip"]
    assert "mutated inputs" in found["title"] and "1 of 4 ops (25%)" in found["title"]
    assert found["locations"] == [{"file": "m.py", "line": 7, "function": "f"}]


def test_a_kind_is_one_module_with_find():
    assert all(callable(kind.find) for kind in KINDS)
    assert {"graph_break", "recompile", "dynamic_shape", "cache", "nothing_compiled",
            "cudagraph_skip", "compile_time", "accuracy", "timing", "profile"} <= {
        m.__name__.rsplit(".", 1)[1] for m in KINDS}


@pytest.mark.slow
def test_caches_cold_warm_then_a_changed_setting_named_by_the_diff(tmp_path):
    cache_dir = fresh_inductor_cache(tmp_path / "inductor-cache")
    runs = []
    for i, args in enumerate(([], [], ["--fusion", "7"])):
        workdir = tmp_path / f"run{i}"
        runs.append(_cached_run(workdir, cache_dir, args))
    cold, warm, changed = (r["findings"] for r in runs)
    (warm_cache,) = [f for f in warm if f["kind"] == "cache"]
    # the second run in the same cache directory: a warm start, the entry another run's
    assert warm_cache["title"].startswith("Warm start: compile 0/0 (") and "hit the caches" in (
        warm_cache["title"])
    assert "FX graph hit" in warm_cache["details"][0]
    assert not [f for f in cold + changed if f["kind"] == "cache"]  # misses: no finding
    assert all(e["result"] == "miss" for c in runs[2]["compiles"] for e in c["cache"])
    diff = tcexplore.diff(tcexplore.Document(runs[1]), tcexplore.Document(runs[2]))
    fields = [c for entry in diff.data["compiles"] for c in entry["changes"]]
    assert any(c["field"] == "FX graph cache key: inductor_config[max_fusion_size]"
               and c["b"] == "7" for c in fields), fields
    # the same two runs saved before capture parsed the key: read back, parsed, diffed alike
    for i in (1, 2):
        for entry in (e for c in runs[i]["compiles"] for e in c["cache"]):
            entry["components"] = [f"[{c['hash']}] {c['name']}: {c['value']}"
                                   for c in entry.pop("key_components")]
        (tmp_path / f"older{i}.json").write_text(json.dumps(runs[i]))
    older = tcexplore.diff(tmp_path / "older1.json", tmp_path / "older2.json")
    assert [c for entry in older.data["compiles"] for c in entry["changes"]] == fields


def _cached_run(workdir: Path, cache_dir: Path, args: list[str]) -> dict:
    workdir.mkdir()
    out = workdir / "doc.json"
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(cache_dir))
    script = PROGRAMS / "cached.py"
    proc = subprocess.run([sys.executable, "-m", "tcexplore", "run", str(script), *args,
                           "--json", str(out)], check=False, env=env, capture_output=True,
                          text=True,
                          timeout=600, cwd=workdir)
    assert out.exists(), proc.stderr[-3000:]
    return json.loads(out.read_text())


@pytest.mark.skipif(LAB_REASON is not None, reason=LAB_REASON or "")
def test_shapes_view_and_cache_finding_render_without_a_kernel(dynamic_run, tmp_path, shots):
    document = tcexplore.Document(dynamic_run.document)
    bundle = document._repr_mimebundle_()
    notebook = write_notebook(tmp_path / "findings.ipynb", [bundle])
    expected = [f["kind"] for f in dynamic_run.document["findings"]]
    assert "cache" not in expected and "dynamic_shape" in expected  # a first compile's misses
    with lab_server(tmp_path, tmp_path / "lab-work") as lab, chromium_page(1280, 900) as page:
        page.goto(lab.url(notebook.name))
        dismiss_kernel_dialog(page)
        explorer = page.locator(".tcx-explorer").first
        explorer.locator(".tcx-findings .tcx-finding").first.wait_for(timeout=90_000)
        kinds = explorer.locator(".tcx-findings > .tcx-finding").evaluate_all(
            "items => items.map(li => li.getAttribute('data-kind'))")
        assert kinds == expected
        explorer.locator(".tcx-findings").screenshot(path=str(shots / "findings-overview.png"))
        explorer.locator(".tcx-finding[data-kind=dynamic_shape] button", has_text="Shapes").click()
        shapes = explorer.locator("[role=tabpanel][data-tab=shapes]")
        shapes.locator(".tcx-shape").first.wait_for(timeout=10_000)
        text = shapes.inner_text()
        assert "x.size(0)" in text and "changed from 8 to 16" in text
        # the guards torch kept, as its guard tree has them
        assert "2 <= x.size(0) <= 100" in text and "(x.size(0) % 2) == 0" in text
        shapes.screenshot(path=str(shots / "findings-shapes.png"))
        shapes.locator("table button").nth(1).click()
        source = explorer.locator("[role=tabpanel][data-tab=source]")
        assert source.locator(".tcx-mark-shape").count() == 2
        assert page.errors == []


def test_changed_cache_key_components_are_named_by_hash_and_value():
    from tcexplore.docdiff.cache_keys import cache_key_changes

    def record(fusion_hash: str, fusion: str) -> dict:
        return {"cache": [{"cache": "fx_graph", "result": "hit", "key_components": [
            {"name": "gm", "hash": "aa", "value": "<lambda>()"},
            {"name": "inductor_config[max_fusion_size]", "hash": fusion_hash, "value": fusion},
            {"name": "inductor_config[long]", "hash": "cc", "value": "x" * 10}]}]}

    assert cache_key_changes(record("bb", "64"), record("bb", "64")) == []
    assert cache_key_changes(record("bb", "64"), record("dd", "32")) == [
        {"field": "FX graph cache key: inductor_config[max_fusion_size]", "a": "64", "b": "32"}]
    # a value cut short in the document: its hash still tells the change
    assert cache_key_changes(record("bb", "6…"), record("dd", "6…"))[0]["a"] == "6…"
    # a value printed with an address (torch's fx_kwargs[get_decomp_fn]): the same hash, key
    assert cache_key_changes(record("bb", "<f at 0x7f1>"), record("bb", "<f at 0x7f2>")) == []
