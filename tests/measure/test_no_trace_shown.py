"""Nothing tcexplore runs shows as the user's: a session in one process, through the real
``%%tcompile`` magic in an InteractiveShell. A dropout training step (its outputs differ, so
the first-divergence search runs) is compiled, then compiled again with other options; no
recompile names tcexplore's own compiles, no warning of tcexplore's is printed or recorded,
the step's own values are not inputs, and no frame of the code capture runs is listed as
not compiled. And explore()'s fp64 reference keeps torch's words on its float64 copy to
itself. An AdamW step, whose compiled code guards on the identity of the optimizer state its
first run made, is measured without being compiled again, in a cell and under explore()."""

from __future__ import annotations

import copy
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
    torch.compiler.reset()  # what other tests in this process compiled is not these cells'
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
    from tcexplore.measure.profiled_capture import capture

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


ADAMW_SETUP = """\
import torch
%load_ext tcexplore
torch.manual_seed(0)
net = torch.nn.Linear(4, 2)
adamw = torch.optim.AdamW(net.parameters(), lr=0.1)
data = torch.randn(3, 4)"""

ADAMW_STEP = """\
loss = net(data).pow(2).mean()
loss.backward()
adamw.step()"""


def _state_tensors(optimizer):
    return [(i, key, value) for i, state in enumerate(optimizer.state.values())
            for key, value in state.items()]


@pytest.fixture(scope="module")
def adamw_session():
    """Two cells of an AdamW step (the second with another backend), with what the user's
    own eager steps give: the reference values, after one step and after two."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    # The optimizer's step is one code object for every optimizer of its class: the other
    # session's cells (a session of their own) leave their entries of it out of this one.
    torch.compiler.reset()
    try:
        assert shell.run_cell(ADAMW_SETUP).success
        ns = shell.user_ns
        users = dict(zip(("net", "adamw", "data"),
                         copy.deepcopy((ns["net"], ns["adamw"], ns["data"]))))
        states, references = [], []  # after each cell: (its state, the user's own steps')
        for cell in ("--backend eager --out adamw_first", "--backend aot_eager --out adamw_second"):
            assert shell.run_cell(f"%%tcompile --time-budget 0.05 {cell}\n{ADAMW_STEP}").success
            exec(ADAMW_STEP, dict(users))
            states.append([(i, key, v, v.clone()) for i, key, v in _state_tensors(ns["adamw"])])
            references.append([(i, key, v.clone()) for i, key, v in _state_tensors(users["adamw"])])
    finally:
        torch.compiler.reset()
    documents = ns["adamw_first"].document.data, ns["adamw_second"].document.data
    return documents, states, references


def test_an_adamw_cell_is_measured_without_compiling_its_step_again(adamw_session):
    """The timing runs find the optimizer state the real run made, as a loop's next step
    does: no recompile on its identity (`___check_obj_id(self.state[...][...])`)."""
    (first, second), _, _ = adamw_session
    assert first["summary"]["recompiles"] == 0, [c["recompile_reasons"] for c in first["compiles"]]
    reasons = [r for c in second["compiles"] for group in c["recompile_reasons"] for r in group]
    assert reasons and all(r["guard"].startswith("BACKEND_MATCH") for r in reasons), reasons
    assert {r["failed_compile_id"] for r in reasons} <= {c["id"] for c in first["compiles"]}
    for data in (first, second):
        assert "self.state" not in json.dumps(data["findings"])


def test_an_adamw_cells_optimizer_state_is_the_users_steps_in_the_objects_it_made(adamw_session):
    """After each cell the state holds what the user's own eager steps give (step, exp_avg,
    exp_avg_sq of weight and bias); the second cell keeps the objects the first one's real
    step made."""
    _, (after_first, after_second), references = adamw_session
    for state, reference in zip((after_first, after_second), references):
        assert [(i, key) for i, key, *_ in state] == [(i, key) for i, key, _ in reference]
        assert len(state) == 6
        torch.testing.assert_close([v for *_, v in state], [v for *_, v in reference])
    assert all(now is made for (_, _, now, _), (_, _, made, _) in zip(after_second, after_first))


def test_explore_of_an_adam_step_compiles_it_once_and_leaves_its_state_as_it_was():
    """From an empty state (it ends empty: the user's first step makes it) and from a
    warm one (the same objects, the same values)."""
    import tcexplore

    torch.manual_seed(0)
    net = torch.nn.Linear(4, 2)
    adam = torch.optim.Adam(net.parameters(), lr=0.1)

    def step(x):
        net(x).pow(2).mean().backward()
        adam.step()

    x = torch.randn(3, 4)
    for warm in (False, True):
        if warm:
            step(x)
        before = [(value, value.clone()) for _, _, value in _state_tensors(adam)]
        exploration = tcexplore.explore(step, x, backend="eager", time_budget_s=0.02)
        assert exploration.error is None and exploration.accuracy["ok"]
        assert exploration.document.data["summary"]["recompiles"] == 0, [
            c["recompile_reasons"] for c in exploration.document.data["compiles"]]
        now = [value for _, _, value in _state_tensors(adam)]
        assert len(now) == len(before) == (6 if warm else 0)
        assert all(v is was and torch.equal(v, values) for v, (was, values) in zip(now, before))
