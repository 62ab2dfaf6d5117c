"""Where the memory goes: saved for backward, recomputed, Inductor's buffers, peaks.

One MLP training step compiled twice (plain, and under torch.utils.checkpoint), shared by
every test; the saved tensors are held against what autograd's saved_tensors_hooks see."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
import torch
from torch.utils.checkpoint import checkpoint

import tcexplore
from tcexplore.document import validate as validate_document
from tcexplore.findings.memory import memory_finding
from tcexplore.measure.profiled_capture import capture


class MLP(torch.nn.Module):
    def __init__(self, checkpointed: bool = False):
        super().__init__()
        self.checkpointed = checkpointed
        self.fc1 = torch.nn.Linear(32, 64)
        self.fc2 = torch.nn.Linear(64, 64)
        self.out = torch.nn.Linear(64, 8)

    def block(self, x):
        x = torch.relu(self.fc1(x))
        return torch.tanh(self.fc2(x))

    def forward(self, x):
        if self.checkpointed:
            x = checkpoint(self.block, x, use_reentrant=False)
        else:
            x = self.block(x)
        return self.out(x).sum()


def _saved_storage_bytes(step, x) -> int:
    """Bytes of the distinct storages autograd saves during one call, as its hooks see them."""
    storages = {}

    def pack(tensor):
        storage = tensor.untyped_storage()
        storages[storage.data_ptr()] = storage.nbytes()
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        step(x)
    return sum(storages.values())


def _compiled_step(checkpointed: bool):
    torch.manual_seed(0)
    model = MLP(checkpointed)
    compiled = torch.compile(model)
    x = torch.randn(16, 32)
    with capture() as session:
        compiled(x).backward()
        hooked = _saved_storage_bytes(compiled, x)
    return session.document.data, hooked


@pytest.fixture(scope="module")
def plain():
    return _compiled_step(False)


@pytest.fixture(scope="module")
def checkpointed():
    return _compiled_step(True)


def _memory(document):
    (record,) = [c for c in document["compiles"] if c.get("memory") and
                 c["memory"]["saved_for_backward"]]
    return record["memory"]


def test_saved_bytes_equal_what_autograd_hooks_see(plain):
    document, hooked = plain
    assert _memory(document)["saved_for_backward"]["bytes"] == hooked


def test_every_saved_activation_has_a_user_line(plain):
    saved = _memory(plain[0])["saved_for_backward"]
    activations = [t for t in saved["tensors"] if t["kind"] == "activation"]
    assert activations
    for tensor in activations:
        assert tensor["user_location"]["file"] == __file__
        assert tensor["user_location"]["function"] in {"block", "forward"}
    kinds = {t["kind"] for t in saved["tensors"]}
    assert kinds == {"activation", "parameter", "input"}
    assert saved["lines"][0]["bytes"] == max(line["bytes"] for line in saved["lines"])


def test_checkpointing_saves_fewer_activations_and_lists_what_it_recomputes(plain, checkpointed):
    memory, ckpt = _memory(plain[0]), _memory(checkpointed[0])
    assert ckpt["saved_for_backward"]["bytes"] == checkpointed[1]
    activations = [t for t in ckpt["saved_for_backward"]["tensors"] if t["kind"] == "activation"]
    assert activations == []  # the block's inputs and weights are kept instead
    assert (ckpt["saved_for_backward"]["bytes_by_kind"]["activation"]
            < memory["saved_for_backward"]["bytes_by_kind"]["activation"])
    recomputed = {r["target"] for r in ckpt["recomputed"]}
    assert {"torch.ops.aten.relu.default", "torch.ops.aten.tanh.default"} & recomputed
    assert all(r["user_location"]["function"] == "block" for r in ckpt["recomputed"]
               if r["target"].endswith(("relu.default", "tanh.default")))
    assert ckpt["activation_memory_budget"] == 1.0


def test_inductor_buffers_per_output_code(plain):
    buffers = _memory(plain[0])["buffers"]
    assert [b["kind"] for b in buffers] == ["forward", "backward"]
    for code in buffers:
        assert code["buffers"] > 0
        assert 0 < code["planned_peak_bytes"] <= code["allocated_bytes"] <= code["without_reuse_bytes"]


def test_static_memory_is_in_a_document_read_from_a_torch_trace_log(program_runs):
    from tcexplore.decided import load_trace
    from tcexplore.document import validate

    run = program_runs["training_step"]
    live = [c["memory"] for c in run.document["compiles"] if c["memory"]]
    imported = [c["memory"] for c in load_trace(run.trace_log).data["compiles"]
                if c["memory"]]
    assert live and live == imported
    saved = live[0]["saved_for_backward"]
    assert saved["bytes"] > 0 and saved["lines"]
    assert all(t["user_location"] for t in saved["tensors"] if t["kind"] == "activation")
    validate(run.document)


@pytest.fixture(scope="module")
def explored():
    torch.compiler.reset()  # MLP.forward compiled above would be reused: no compile to capture
    torch.manual_seed(0)
    model = MLP()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    # cold: the saved tensors' lines come from the post-grad graph, which a cache hit skips
    exploration = tcexplore.explore(model, torch.randn(16, 32), memory=True,
                                    measure_timing=False, bypass_caches=True)
    return exploration, model, before


def test_explore_measures_eager_and_compiled_peaks_and_says_how(explored):
    exploration, model, before = explored
    memory = exploration.memory
    peaks = memory["peak_bytes"]
    assert memory["error"] is None
    assert peaks["device"] == "cpu" and "torch.profiler" in peaks["how"]
    for side in ("eager", "compiled"):
        # at least the step's saved activations and weight gradients were alive at once
        assert peaks[side]["above_before_bytes"] >= 16 * 64 * 4
    assert memory["saved_for_backward"]["bytes"] > 0
    assert [b["kind"] for b in memory["buffers"]] == ["forward", "backward"]
    for name, value in model.state_dict().items():
        assert torch.equal(value, before[name]), name
    assert all(p.grad is None for p in model.parameters())
    validate_document(exploration.to_dict())


def test_memory_finding_names_lines_and_advice(explored):
    finding = memory_finding(explored[0].to_dict())
    assert finding["kind"] == "memory"
    assert finding["title"].startswith("compiled peaks at ")
    assert {loc["function"] for loc in finding["locations"]} <= {"block", "forward"}
    assert finding["locations"][0]["file"] == __file__
    assert finding["advice"] is None  # kilobytes saved: not worth checkpointing
    data = explored[0].to_dict()
    peaks = data["memory"]["peak_bytes"]
    doubled = {**peaks["compiled"], "above_before_bytes": 2 * peaks["eager"]["above_before_bytes"]}
    over = {**data, "memory": {**data["memory"], "peak_bytes": {**peaks, "compiled": doubled}}}
    advised = memory_finding(over)  # a compiled peak well over eager's is worth advice
    assert advised["severity"] == "warning" and "activation_memory_budget" in advised["advice"]


def test_run_memory_writes_the_peak_and_prints_the_finding(tmp_path):
    import json
    import subprocess
    import sys

    script = tmp_path / "step.py"
    script.write_text("import torch\n"
                      "w = torch.randn(8, 8, requires_grad=True)\n"
                      "step = torch.compile(lambda x: (x @ w).relu().sum())\n"
                      "step(torch.randn(4, 8)).backward()\n")
    out = tmp_path / "doc.json"
    proc = subprocess.run([sys.executable, "-m", "tcexplore", "run", str(script), "--memory",
                           "--json", str(out)], check=False, capture_output=True, text=True, timeout=600,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    document = json.loads(out.read_text())
    peaks = document["memory"]["peak_bytes"]
    assert peaks["eager"] is None and peaks["compiled"]["peak_bytes"] > 0
    assert "the whole run" in peaks["how"]
    assert "tcexplore: memory: the run peaked at " in proc.stderr
    validate_document(document)


def test_html_report_has_the_memory_section_with_lines_and_links(explored):
    from tcexplore.findings.source_marks import source_marks
    from tcexplore.render.html import render_html

    html = render_html(explored[0].to_dict(), full_page=False)
    section = html[html.index('id="tcx-memory"'):]
    assert "Where the memory goes" in section and "compiled peaks at" in section
    relu_line = inspect.getsourcelines(MLP.block)[1] + 1
    assert f"test_memory.py:{relu_line}" in section and 'href="#' in section
    assert "Inductor&#x27;s buffers per output code" in section or "Inductor's buffers" in section
    # the report's Source view (files whose text the document carries) marks the saved lines
    data = explored[0].to_dict()
    with_text = {**data, "explore": {**data["explore"],
                                     "sources": {__file__: Path(__file__).read_text()}}}
    with_text["source_marks"] = source_marks(with_text)  # decided with the text, as at build
    assert re.search(r'class="tcx-mark tcx-mark-memory" href="#tcx-memory"[^>]*>saved ',
                     render_html(with_text, full_page=False))


def test_finding_fixture_is_what_python_gives():
    """tests/fixtures/memory pins the finding and the saved activations by line the extension
    draws (jest: memory.spec.ts) to what Python decides."""
    import json

    from tcexplore.findings.memory import saved_activations

    folder = Path(__file__).parents[1] / "fixtures" / "memory"
    document = json.loads((folder / "document.json").read_text())
    # the finding as the memory views draw it; its fix is what a try runs (test_try_fixes)
    drawn = {k: v for k, v in memory_finding(document).items() if k != "fix"}
    assert drawn == json.loads((folder / "expected_finding.json").read_text())
    assert document["saved_activations"] == saved_activations(document)


def test_compare_grid_has_a_peak_memory_column():
    from tcexplore.render.comparison import render_comparison_html

    grid = tcexplore.compare(lambda x: (x.sin() * 2).relu().sum(dim=0), torch.randn(64, 64),
                             backends=["aot_eager"], memory=True, time_budget_s=0.02)
    data = grid.to_dict()
    (row,) = data["rows"]
    assert row["peak_memory_bytes"] == row["document"]["memory"]["peak_bytes"]["compiled"][
        "above_before_bytes"] > 0
    validate_document(data)
    assert "<th>peak memory</th>" in render_comparison_html(data)


def test_a_step_that_back_propagates_gets_its_peak_from_the_start_state():
    """README's step (#43 item 2): it calls ``loss.backward()`` and returns the loss, so its
    own backward is measured, not one more of its output (the graph is freed: that raised
    "Trying to backward through the graph a second time"). Each side starts from the state
    the step started from (no gradients yet), so each peak holds the gradients it makes."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.GELU()).train()

    def step(x):
        loss = model(x).square().mean()
        loss.backward()
        return loss

    exploration = tcexplore.explore(step, torch.randn(32, 64), memory=True, time_budget_s=0.05)
    memory = exploration.memory
    assert memory["error"] is None, memory["error"]
    grads = sum(p.numel() * p.element_size() for p in model.parameters())
    for side in ("eager", "compiled"):
        assert memory["peak_bytes"][side]["above_before_bytes"] >= grads
    assert "the call's own, where it back-propagates" in memory["peak_bytes"]["how"]
    assert exploration.summary()["failures"] == 0
    assert all(p.grad is None for p in model.parameters()), "left as it was"


def test_activations_of_symbolic_size_are_never_said_to_be_zero_bytes():
    """dynamic=True: the saved activations' shapes are symbolic, so torch gives no bytes for
    them. The finding, the Source marks and the compile's section say they were saved and
    how many, never "0 B of activations saved" (a compare() row with dynamic=True did)."""
    from tcexplore.findings import decide
    from tcexplore.render.html import render_html

    torch.manual_seed(0)
    model = MLP()
    with capture() as session:
        torch.compile(model, dynamic=True)(torch.randn(16, 32)).backward()
    data = decide(session.document.data)
    saved = data["saved_activations"]
    symbolic = {c["id"]: c["memory"]["saved_for_backward"]["unsized"] for c in data["compiles"]
                if c.get("memory") and c["memory"]["saved_for_backward"]}
    assert saved["bytes"] == 0 and saved["symbolic"] >= 2 and sum(symbolic.values()) >= 2
    assert [line["line"] for line in saved["lines"]] and all(
        line["symbolic"] >= 1 for line in saved["lines"])
    (finding,) = [f for f in data["findings"] if f["kind"] == "memory"]
    assert "0 B" not in finding["title"] and "of symbolic size" in finding["title"]
    assert not [d for d in finding["details"] if "0 B" in d]
    marks = [m["label"] for f in data["source_marks"]["files"] for line in f["lines"]
             for m in line["marks"] if m["kind"] == "memory"]
    assert marks and all(label.startswith("saved ") and "0 B" not in label for label in marks)
    page = render_html(data, full_page=False)
    for count in symbolic.values():
        assert f"storages, {count} of symbolic size" in page
    validate_document(data)
