"""One cause, one label, everywhere: the labels and verdicts the views show are decided once
in Python (findings/), stored in the document, and drawn by the HTML report and the
extension alike.

tests/fixtures/labels holds a real dropout training step explored on CPU (regenerate.py);
``expected.json`` is what both renderers must show for it: this file checks the HTML report
(and that Python still decides the same), extension/src/__tests__/labels.spec.ts the
extension's views. A live dropout step pins the invariant on today's torch.
"""

from __future__ import annotations

import copy
import html
import json
import re
from pathlib import Path

import pytest
import torch

import tcexplore
from tcexplore.document import validate
from tcexplore.findings import decide
from tcexplore.findings.accuracy import labelled
from tcexplore.findings.pipeline import pipeline
from tcexplore.findings.profile import below_roof_text, calls_line
from tcexplore.findings.timing import timing_verdict
from tcexplore.render.html import render_html

FIXTURE = Path(__file__).parents[1] / "fixtures" / "labels"
DECIDED = (("accuracy", "verdict"), ("timing", "verdict"))


def _document() -> dict:
    return json.loads((FIXTURE / "document.json").read_text())


def _expected() -> dict:
    return json.loads((FIXTURE / "expected.json").read_text())


def _shown(data: dict) -> dict:
    import sys

    sys.path.insert(0, str(FIXTURE))
    try:
        from regenerate import shown
    finally:
        sys.path.remove(str(FIXTURE))
    return shown(data)


def _labels(page: str, table_class: str) -> list[list[str]]:
    """[path, label, look] per row of one of the report's leaf tables."""
    body = page.split(f'class="{table_class}"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td>", body)
    out = []
    for path, verdict in rows:
        look = re.search(r'class="tcx-status([^"]*)"', verdict)
        text = re.sub(r"<[^>]+>", "", verdict)
        out.append([html.unescape(re.sub(r"<[^>]+>", "", path)), html.unescape(text),
                    look.group(1).strip() if look else ""])
    return out


_LOOK = {"random": "tcx-status-random", "mismatch": "tcx-status-failed", "match": "tcx-status-ok",
         "other": ""}


def test_the_fixture_holds_what_python_decides():
    stored = _document()
    again = decide(copy.deepcopy(stored))
    assert _shown(again) == _shown(stored) == _expected()


def test_the_report_shows_each_stored_label_with_its_look():
    expected = _expected()
    page = render_html(tcexplore.Document(_document()))
    for key, table in (("outputs", "tcx-accuracy-table"), ("gradients", "tcx-gradients-table")):
        shown = [[path or "(output)", label, _LOOK[state]]
                 for path, label, state in expected["leaves"][key]]
        assert _labels(page, table) == shown, key
    assert html.escape(expected["accuracy"]["headline"]) in page
    assert html.escape(expected["accuracy"]["why"]) in page
    for line in ("headline", "measurement", "machine", "first_call"):
        assert html.escape(expected["timing"][line]) in page, line
    assert html.escape(expected["calls"]) in page
    pipeline_box = page.split('class="tcx-pipeline"', 1)[1].split("</table>", 1)[0]
    for name, _, counts in expected["pipeline"]:
        assert all(html.escape(c) in pipeline_box for c in [name, *counts])


def test_dropout_differences_are_random_everywhere_never_a_failure():
    document = _document()
    accuracy = document["accuracy"]
    rows = accuracy["outputs"] + accuracy["gradients"]
    assert accuracy["cause"] == "random" and not any(row["ok"] for row in rows)
    assert {(row["state"], row["label"]) for row in rows} == {("random", "differs (random ops)")}
    assert accuracy["verdict"]["severity"] == "warning"
    (found,) = [f for f in document["findings"] if f["kind"] == "accuracy"]
    assert (found["severity"], found["title"]) == ("warning", accuracy["verdict"]["headline"])
    page = render_html(tcexplore.Document(document))
    assert "tcx-status-failed" not in page.split("tcx-measurements", 1)[1]


def test_a_real_mismatch_stays_a_failure_in_every_row():
    document = _document()
    for key in ("cause", "random_ops", "fallback_random_option"):
        document["accuracy"].pop(key)
    decide(document)
    accuracy = document["accuracy"]
    assert {row["state"] for row in accuracy["outputs"] + accuracy["gradients"]} == {"mismatch"}
    assert accuracy["verdict"]["severity"] == "error"
    assert accuracy["verdict"]["headline"].startswith("Compiled outputs differ from eager; first at node")
    page = render_html(tcexplore.Document(document))
    assert _labels(page, "tcx-gradients-table")[0][1:] == ["differs", "tcx-status-failed"]


def test_an_older_document_gets_every_decision_when_loaded(tmp_path):
    old = _document()
    for section, key in DECIDED:
        old[section].pop(key)
    for row in old["accuracy"]["outputs"] + old["accuracy"]["gradients"]:
        del row["state"], row["label"]
    del old["profile"]["calls"]["line"], old["pipeline"], old["findings"]
    for kernel in old["profile"]["kernels"]:
        (kernel.get("below_roof") or {}).pop("text", None)
    (tmp_path / "old.json").write_text(json.dumps(old))
    loaded = tcexplore.load(tmp_path / "old.json").data
    assert _shown(loaded) == _expected()
    def titles(data: dict) -> list[str]:
        return [f["title"] for f in data["findings"] if f["kind"] in ("accuracy", "timing")]

    assert titles(loaded) == titles(_document())
    validate(loaded)


BREAKS = Path(__file__).parents[1] / "fixtures" / "graph_break_audit"


def _break_labels() -> list[tuple[str, str]]:
    """(finding title, count note) per break site, as Python decided them for the
    %%tcompile fixture; labels.spec.ts finds the same in the extension's views."""
    sites = json.loads((BREAKS / "expected.json").read_text())
    found = json.loads((BREAKS / "findings.json").read_text())
    titles = [f["title"] for f in found if f["kind"] == "graph_break"]
    return list(zip(titles, [site["count_note"] for site in sites], strict=True))


def test_the_report_shows_each_break_site_with_the_labels_the_extension_shows(tmp_path):
    (tmp_path / "old.json").write_text((BREAKS / "document.json").read_text())
    document = tcexplore.load(tmp_path / "old.json")  # saved before the sites were stored
    assert document.data["graph_break_sites"] == json.loads((BREAKS / "expected.json").read_text())
    page = render_html(document)
    labels = _break_labels()
    assert len(labels) == 2
    for title, note in labels:
        assert html.escape(title) in page and html.escape(note) in page
    assert "saved before tcexplore stored its graph breaks" not in page


def test_a_document_saved_before_the_sites_and_saved_lines_gets_them_alone_when_loaded(tmp_path):
    stored = _document()
    old = copy.deepcopy(stored)
    del old["graph_break_sites"], old["saved_activations"]
    old["findings"][0]["title"] = "kept as saved"
    (tmp_path / "old.json").write_text(json.dumps(old))
    loaded = tcexplore.load(tmp_path / "old.json").data
    for name in ("graph_break_sites", "saved_activations"):
        assert loaded[name] == stored[name]
    assert loaded["saved_activations"]["lines"] and loaded["graph_break_sites"]
    assert loaded["findings"][0]["title"] == "kept as saved"  # nothing else decided again


def test_a_document_without_its_sites_says_so_in_the_report():
    data = json.loads((BREAKS / "document.json").read_text())
    page = render_html(tcexplore.Document(data))  # not loaded: nothing computed for it
    breaks = page.split('id="tcx-graph-breaks"', 1)[1]
    assert "saved before tcexplore stored its graph breaks grouped by site" in breaks
    assert 'class="tcx-mark tcx-mark-break"' not in page


def _timing(**overrides) -> dict:
    """7 samples, compiled 1.58× faster by the medians, one compiled call of 581 ms."""
    return {"eager": {"median_ms": 16.1, "iqr_ms": 1.2, "q1_ms": 15.6, "q3_ms": 16.8,
                      "samples": 7, "noisy": False},
            "compiled": {"median_ms": 10.2, "iqr_ms": 0.8, "q1_ms": 9.9, "q3_ms": 10.7,
                         "max_ms": 581, "samples": 7, "noisy": False},
            "compile_s": 3, "speedup": 16.1 / 10.2, "speedup_interval": [1.45, 1.7],
            "break_even_calls": 508, "noisy": False, "budget_s": 0.2, "device": "cpu",
            **overrides}


def test_timing_states_a_clear_speedup_plainly_and_only_then_is_it_ok():
    verdict = timing_verdict(_timing())
    assert verdict == {
        "severity": "ok", "headline": "Compiled is 1.58× faster than eager: 10.2 ms vs 16.1 ms per call",
        "short": "1.58× faster", "noise": None, "busy": None, "advice": None,
        "measurement": "steady (both IQRs within 10% of their medians)", "machine": None,
        "first_call": "first call (compile + run)", "break_even": "508 calls"}
    slower = timing_verdict(_timing(speedup=0.151, speedup_interval=[0.14, 0.16]))
    assert slower["severity"] == "warning"
    assert slower["headline"].startswith("Compiled is 6.62× slower than eager")


def test_timing_says_which_side_is_noisy_and_what_to_do():
    noisy = timing_verdict(_timing(compiled={"median_ms": 16, "iqr_ms": 96, "samples": 7,
                                             "noisy": True}, speedup_interval=[1.1, 2.2]))
    assert noisy["severity"] == "warning"
    assert noisy["noise"] == "Noisy: compiled's IQR is 96.0 ms on a 16.0 ms median (600%)."
    assert noisy["measurement"] == "noisy (an IQR over 10% of its median)"
    assert "this run: 0.2 s per side" in noisy["advice"] and "--time-budget" in noisy["advice"]
    # a document written before sides kept `noisy`: the same rule, from the figures
    older = timing_verdict(_timing(compiled={"median_ms": 16, "iqr_ms": 96, "samples": 7}))
    assert older["noise"] == noisy["noise"]


def test_timing_with_no_clear_difference_or_a_busy_machine_is_a_warning():
    undecided = timing_verdict(_timing(speedup=1.03, speedup_interval=[0.96, 1.1]))
    assert undecided["severity"] == "warning"
    assert re.match(r"^No clear difference between compiled and eager: 1.03× faster by the "
                    r"medians .* 0.960–1.10×, holds 1×$", undecided["headline"])
    machine = {"busy": True, "reasons": ["other processes used 1.9 of 2 cores"], "cores": 2,
               "torch_threads": 2, "load_average": 4.1, "others_cores": 1.9,
               "process_cores": 0.4, "throttled_share": None, "window_s": 0.8,
               "fit_threads": 1}
    busy = timing_verdict(_timing(machine=machine))
    assert busy["severity"] == "warning" and busy["busy"].startswith("Busy machine: other")
    assert busy["advice"].startswith("Quiet the machine") and "set_num_threads(1)" in busy["advice"]
    assert busy["machine"] == ("busy: 0.4 cores used by this process, 1.9 by others, of 2, "
                               "torch threads 2, load average 4.10 over 0.800 s")


def test_timing_with_nothing_compiled_compares_eager_with_eager_and_is_never_ok():
    verdict = timing_verdict(_timing(), compiled=False)
    assert verdict["severity"] == "warning"
    assert verdict["headline"].startswith("Nothing was compiled: both sides ran eagerly")
    assert verdict["first_call"] == "first call (nothing compiled)"


def _accuracy(cause: str | None, outputs_ok: bool, found: dict | None) -> dict:
    row = {"path": "", "kind": "tensor", "ok": outputs_ok}
    accuracy = {"ok": False, "outputs": [row], "inputs_after_call": [],
                "gradients": [{"path": "fc.weight", "kind": "tensor", "ok": False},
                              {"path": "fc.bias", "kind": "tensor", "ok": True}],
                "first_divergence": found}
    if cause:
        accuracy.update(cause=cause, random_ops=["aten.bernoulli_.float"],
                        fallback_random_option='options={"fallback_random": True}')
    return accuracy


NODE = {"node": "tanh", "target": "torch.tanh", "of": "gradients",
        "source": {"file": "/home/me/cell.py", "line": 4}}


def test_a_gradient_only_difference_names_the_parameters_and_the_backward_node():
    out = labelled(_accuracy(None, True, NODE), {"/home/me/cell.py": "cell [3]"})
    assert out["verdict"]["severity"] == "error"
    assert out["verdict"]["headline"] == (
        "Compiled outputs match eager, but the gradients of fc.weight differ; first in the "
        "backward of node tanh (torch.tanh) at cell [3], line 4.")
    assert [(r["state"], r["label"]) for r in out["gradients"]] == [
        ("mismatch", "differs"), ("match", "match")]


def test_random_ops_in_the_graphs_may_explain_a_difference_with_no_node():
    out = labelled(_accuracy("random_in_graph", False, None), {})
    verdict = out["verdict"]
    assert verdict["severity"] == "warning"
    assert verdict["headline"] == ("Compiled outputs differ from eager; random ops in the "
                                   "graphs may explain it. The gradients of 1 parameter differ too.")
    assert "aten.bernoulli_.float" in verdict["why"] and "fallback_random" in verdict["advice"]
    assert {r["state"] for r in out["outputs"] + out["gradients"] if not r["ok"]} == {"random"}


def test_a_difference_no_node_explains_says_so():
    verdict = labelled(_accuracy(None, False, None), {})["verdict"]
    assert verdict["headline"] == "Compiled outputs differ from eager. The gradients of 1 parameter differ too."
    assert verdict["why"].startswith("No graph node diverges on its own")


def test_cuda_graphs_are_graphed_only_where_torch_recorded_one():
    partitioned = {"summary": {"partitions": 1, "cudagraphable": 1, "non_cudagraphable": 0},
                   "partitions": [{"index": 0, "nodes": 3, "cudagraphable": True,
                                   "detail": "partition includes all ops when cudagraphs is disabled"}],
                   "skips": [], "recordings": 0, "rerecordings": 0, "messages": []}
    data = {"summary": {}, "compiles": [{"cudagraphs": partitioned}], "runtime": {}}
    (cuda,) = [s for s in pipeline(data) if s["name"] == "CUDA graphs"]
    assert cuda == {"name": "CUDA graphs", "counts": ["no CUDA graph recorded"], "active": False,
                    "seconds": None}
    data["compiles"].append({"cudagraphs": {**partitioned, "recordings": 1}})
    data["compiles"].append({"cudagraphs": {**partitioned, "skips": [{"reason": "mutated inputs"}]}})
    (cuda,) = [s for s in pipeline(data) if s["name"] == "CUDA graphs"]
    assert (cuda["counts"], cuda["active"]) == (["1 graphed compile", "1 skipped"], True)
    data["capture"] = {"unavailable": [{"field": "compiles[].cudagraphs", "reason": "a log"}]}
    (cuda,) = [s for s in pipeline(data) if s["name"] == "CUDA graphs"]
    assert (cuda["counts"], cuda["active"]) == (["not recorded in this document"], False)


def test_profile_lines_say_why_a_kernel_is_below_its_roof_and_which_calls_compiled():
    assert below_roof_text({"reason": "page_faults", "page_faults": 4096.4, "fault_share": 0.29,
                            "transcendentals": ["tanh"]}) == (
        "page faults: 4096 per launch (~29% of its time); transcendentals: tanh")
    assert below_roof_text({"reason": "transcendentals", "page_faults": 0,
                            "transcendentals": ["exp", "tanh"]}) == "math-bound, transcendentals: exp, tanh"
    assert below_roof_text({"reason": "transcendentals", "page_faults": 4096, "fault_share": 0.2,
                            "transcendentals": ["tanh"]}) == (
        "math-bound, transcendentals: tanh; page faults: 4096 per launch (~20% of its time)")
    assert below_roof_text({"reason": "unexplained", "page_faults": 0, "transcendentals": []}) == (
        "unexplained (no page faults, no transcendental math)")
    assert calls_line({"steady": 3, "compiling": 1, "compiling_us": 2.5e6, "per_call_us": 120}) == (
        "3 measured, 120 µs each on average; 1 during which torch compiled (2.50 s in all) left "
        "out of every figure")


def dropout_step_parts():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Dropout(0.5), torch.nn.Linear(8, 2))

    def step(x):
        loss = model(x).square().mean()
        loss.backward()
        return loss.detach()

    return step, torch.randn(4, 8)


def test_a_live_dropout_step_labels_outputs_and_gradients_alike_in_the_report():
    step, x = dropout_step_parts()
    exploration = tcexplore.explore(step, x, time_budget_s=0.02)
    data = exploration.document.data
    accuracy = data["accuracy"]
    assert accuracy["cause"] == "random" and accuracy["gradients"]
    differing = [r for r in accuracy["outputs"] + accuracy["gradients"] if not r["ok"]]
    assert differing and {r["label"] for r in differing} == {"differs (random ops)"}
    assert accuracy["verdict"]["severity"] == "warning"
    (cuda,) = [s for s in data["pipeline"] if s["name"] == "CUDA graphs"]
    assert not cuda["active"] and not any("graphed" in c for c in cuda["counts"])
    page = render_html(exploration.document)
    assert "tcx-status-failed" not in page.split("tcx-measurements", 1)[1]
    assert len(_labels(page, "tcx-gradients-table")) == len(accuracy["gradients"])
    validate(data)


@pytest.mark.parametrize("section", ["accuracy", "timing"])
def test_the_report_of_a_document_without_a_stored_verdict_decides_nothing(section):
    data = _document()
    data[section].pop("verdict")
    page = render_html(data)
    assert f"saved before tcexplore stored its {section}" in page
