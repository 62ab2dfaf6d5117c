"""Nothing tcexplore runs shows as the user's: a session in one process, through the real
``%%tcompile`` magic in an InteractiveShell. A dropout training step (its outputs differ, so
the first-divergence search runs) is compiled, then compiled again with other options; no
recompile names tcexplore's own compiles, no warning of tcexplore's is printed or recorded,
the step's own values are not inputs, and no frame of the code capture runs is listed as
not compiled. And explore()'s fp64 reference keeps torch's words on its float64 copy to
itself."""

from __future__ import annotations

import json
import warnings

import pytest
import torch

pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")

from tcexplore.capture.library_files import is_library  # noqa: E402
from tcexplore.capture.not_compiled import listener_roots  # noqa: E402

SETUP = """\
import warnings
import torch
%load_ext tcexplore
torch.manual_seed(0)

class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)
        self.drop = torch.nn.Dropout(0.5)

    def forward(self, x):
        y = self.drop(self.lin(x))
        if y.sum() > 0:  # data-dependent: forward is a frame of its own, compiled per call
            y = y * 2
        return y.relu()

model = Block()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(4, 8)"""

STEP = """\
out = model(x)
loss = out.pow(2).mean()
loss.backward()
opt.step()
warnings.warn("the user's own warning")"""

NON_LEAF = "is not a leaf Tensor is being accessed"


@pytest.fixture(scope="module")
def session():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    assert shell.run_cell(SETUP).success
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = shell.run_cell(f"%%tcompile --time-budget 0.05 --out first\n{STEP}")
        second = shell.run_cell(f"%%tcompile --backend aot_eager --time-budget 0.05 "
                                f"--out second\n{STEP}")
    assert first.success and second.success, (first.error_in_exec, second.error_in_exec)
    return shell.user_ns["first"].document.data, shell.user_ns["second"].document.data, caught


def test_the_divergence_search_ran(session):
    first, _, _ = session
    assert not first["accuracy"]["ok"]
    assert first["accuracy"]["first_divergence"] is not None, first["accuracy"].get(
        "divergence_error")


def test_no_recompile_meets_an_entry_tcexplore_compiled_for_itself(session):
    """The second cell's recompiles name only the compiles the user's cells made."""
    first, second, _ = session
    users = {c["id"] for c in first["compiles"]} | {c["id"] for c in second["compiles"]}
    reasons = [r for c in second["compiles"] for group in c["recompile_reasons"] for r in group]
    assert "tcexplore" not in json.dumps(reasons)
    assert {r["failed_compile_id"] for r in reasons} <= users, reasons


def test_no_warning_of_tcexplore_is_printed_or_recorded_and_the_users_is(session):
    first, second, caught = session
    package = listener_roots()[0]
    ours = [(str(w.message), w.filename) for w in caught
            if is_library(w.filename, [package]) or NON_LEAF in str(w.message)]
    assert ours == []
    assert any("the user's own warning" in str(w.message) for w in caught)
    for data in (first, second):
        recorded = json.dumps(data.get("runtime") or {}) + json.dumps(data["compiles"])
        assert NON_LEAF not in recorded


def test_the_steps_own_values_are_not_inputs(session):
    """loss and out exist from the first cell when the second runs; it only rebinds them."""
    first, second, _ = session
    for data in (first, second):
        assert [r["path"] for r in data["accuracy"]["inputs_after_call"]] == ["x"]
        assert {"loss", "out"} <= {r["path"] for r in data["accuracy"]["outputs"]}


def test_no_frame_of_the_code_capture_runs_is_listed_as_not_compiled(session):
    roots = listener_roots()
    for data in session[:2]:
        listed = [(e["function"], e["file"]) for e in data["not_compiled"]
                  if is_library(e["file"], roots)]
        assert listed == []


def test_a_cell_input_is_a_name_read_before_the_cell_binds_it():
    from tcexplore.notebook.cell import compile_cell

    namespace = {"x": torch.ones(2), "loss": torch.ones(1), "n": torch.ones(1),
                 "y": torch.ones(1), "c": True}
    cell = compile_cell("loss = x.sum()\nn = n + 1\nif c:\n    y = x * 2\nz = y + loss",
                        "/tmp/tcexplore-test-cell/inputs.py", namespace)
    assert cell.params == ["loss", "n", "x", "y"]
    assert cell.inputs == ["n", "x", "y"]  # y: the branch may not bind it


def test_the_fp64_reference_keeps_torchs_words_on_its_copy_to_itself():
    import tcexplore

    class WarnsInFloat64(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(4, 4)

        def forward(self, x):
            if x.dtype == torch.float64:
                warnings.warn("only the float64 copy says this", stacklevel=1)
            return self.lin(x)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exploration = tcexplore.explore(WarnsInFloat64(), torch.randn(2, 4), backend="eager",
                                        reference="fp64", measure_timing=False)
    assert exploration.accuracy["reference"]["available"]
    assert not [w for w in caught if "float64 copy" in str(w.message)]


def _shown(event):
    """A capture hook as the notebook's live progress is one (it displays each stage)."""
    return _stage_of(event.kind)


def _stage_of(kind):
    return len(kind)


def test_no_frame_a_capture_hook_runs_is_listed_as_not_compiled():
    """A step's backward is compiled lazily inside the user's frames, while Dynamo watches
    the frames they call: the hook (IPython's display in a notebook) runs then."""
    from tcexplore.capture import capture

    model = torch.nn.Linear(4, 4)

    def step(x):
        loss = model(x).sum()
        loss.backward()
        return loss

    events = []
    with capture(on_event=lambda e: events.append(_shown(e))) as session:
        torch.compile(step, backend="aot_eager")(torch.randn(2, 4))
    assert events
    hooks = {"_shown", "_stage_of", "<lambda>"}
    assert [e for e in session.document.data["not_compiled"]
            if e["function"] in hooks and e["file"] == __file__] == []
