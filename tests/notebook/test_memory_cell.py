"""``%%tcompile --memory`` (#43 item 3): a training cell's peak memory, eager and compiled,
measured from the state its real run started from, its own ``loss.backward()`` included;
the cell's effects stay one run's. Through a real IPython InteractiveShell."""

from __future__ import annotations

import pytest
import torch

pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")

SETUP = """\
import copy
import torch
%load_ext tcexplore
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.BatchNorm1d(32), torch.nn.ReLU())
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
batch = torch.randn(8, 16)
expected = copy.deepcopy(model)
expected_opt = torch.optim.SGD(expected.parameters(), lr=0.1, momentum=0.9)
expected(batch).pow(2).mean().backward()
expected_opt.step()"""

STEP = """\
loss = model(batch).pow(2).mean()
loss.backward()
opt.step()"""


@pytest.fixture(scope="module")
def shell():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    assert shell.run_cell(SETUP).success
    ran = shell.run_cell(f"%%tcompile --memory --time-budget 0.05 --out measured\n{STEP}")
    assert ran.success, ran.error_in_exec
    return shell


def test_a_training_cell_gets_its_peaks_with_its_own_backward(shell):
    data = shell.user_ns["measured"].document.data
    memory = data["memory"]
    assert memory["error"] is None, memory["error"]
    grads = sum(p.numel() * p.element_size() for p in shell.user_ns["model"].parameters())
    for side in ("eager", "compiled"):
        assert memory["peak_bytes"][side]["above_before_bytes"] >= grads
    assert data["summary"]["failures"] == 0
    assert any(f["kind"] == "memory" for f in data["findings"])


def test_the_cell_keeps_one_steps_effects(shell):
    model, expected = shell.user_ns["model"], shell.user_ns["expected"]
    for p, q in zip(model.parameters(), expected.parameters()):
        torch.testing.assert_close(p, q)
        torch.testing.assert_close(p.grad, q.grad)
    torch.testing.assert_close(model[1].running_mean, expected[1].running_mean)
    assert model[1].num_batches_tracked.item() == 1


def test_memory_needs_the_eager_rerun(shell):
    ran = shell.run_cell(f"%%tcompile --memory --no-eager\n{STEP}")
    assert not ran.success and "--memory runs the cell again" in str(ran.error_in_exec)
