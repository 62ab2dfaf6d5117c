"""Measuring leaves the user's objects as they were; a training step's gradients are compared.

A BatchNorm + Linear training step (backward and an SGD step with momentum) is explored and
compared: parameters, their .grad, buffers, optimizer state, inputs and the RNG are bit-equal
afterwards. A backend whose backward of tanh is wrong is caught by the gradient rows, and the
divergence search names the tanh node.
"""

from __future__ import annotations

import copy
import operator

import pytest
import torch

import tcexplore
from tcexplore.document import validate

torch.manual_seed(0)
MODEL = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.BatchNorm1d(16), torch.nn.ReLU(),
                            torch.nn.Linear(16, 1))
OPTIMIZER = torch.optim.SGD(MODEL.parameters(), lr=0.1, momentum=0.9)
X = torch.randn(32, 8)


def train_step(x):
    loss = MODEL(x).pow(2).mean()
    loss.backward()
    OPTIMIZER.step()
    return loss.detach()


def _warm_state():
    """One eager step first, so gradients and momentum buffers are there (and not zero)."""
    train_step(X)
    torch.rand(1)  # an RNG state of its own


def _state():
    return {"module": copy.deepcopy(MODEL.state_dict()),
            "grads": {n: p.grad.clone() for n, p in MODEL.named_parameters()},
            "optimizer": copy.deepcopy(OPTIMIZER.state_dict()),
            "input": X.clone(), "rng": torch.get_rng_state(), "training": MODEL.training}


def _assert_bit_equal(before, after):
    for key in ("module", "grads"):
        assert before[key].keys() == after[key].keys()
        for name, value in before[key].items():
            assert torch.equal(value, after[key][name]), f"{key} {name} changed"
    assert after["module"]["1.num_batches_tracked"] == before["module"]["1.num_batches_tracked"]
    momentum = [s["momentum_buffer"] for s in before["optimizer"]["state"].values()]
    assert len(momentum) == 6
    assert all(torch.equal(a["momentum_buffer"], b) for a, b in
               zip(after["optimizer"]["state"].values(), momentum))
    assert before["optimizer"]["param_groups"] == after["optimizer"]["param_groups"]
    assert torch.equal(before["input"], after["input"])
    assert torch.equal(before["rng"], after["rng"])
    assert before["training"] == after["training"]


@pytest.fixture(scope="module")
def explored():
    _warm_state()
    before = _state()
    exploration = tcexplore.explore(train_step, X, backend="aot_eager", time_budget_s=0.05)
    return before, exploration


def test_explore_of_a_training_step_leaves_everything_it_reached_bit_equal(explored):
    before, exploration = explored
    _assert_bit_equal(before, _state())
    assert exploration.timing is not None and exploration.accuracy is not None


def test_explore_compares_every_parameters_gradient_and_says_what_it_restored(explored):
    _, exploration = explored
    rows = exploration.accuracy["gradients"]
    assert [r["path"] for r in rows] == [f"MODEL.{n}" for n, _ in MODEL.named_parameters()]
    assert all(r["ok"] and r["kind"] == "tensor" for r in rows)
    assert exploration.accuracy["ok"]
    isolation = exploration.isolation
    assert any(line.startswith("MODEL: 6 parameters") for line in isolation["restored"])
    assert any(line.startswith("OPTIMIZER: optimizer state of 6") for line in isolation["restored"])
    assert any("version counters" in line for line in isolation["not_restorable"])
    validate(exploration.document.data)


def test_explore_compares_the_state_the_step_left(explored):
    """#43 item 4: the parameters the optimizer stepped, BatchNorm's buffers and the
    optimizer's momentum, after the compiled step against after the eager step."""
    _, exploration = explored
    rows = {r["path"]: r for r in exploration.accuracy["state_after_call"]}
    names = [n for n, _ in MODEL.named_parameters()]
    assert {f"MODEL.{n}" for n in names} <= set(rows)
    assert {"MODEL.1.running_mean", "MODEL.1.running_var", "MODEL.1.num_batches_tracked"} <= set(rows)
    assert {f"OPTIMIZER.state[MODEL.{n}].momentum_buffer" for n in names} <= set(rows)
    assert all(r["ok"] and r["state"] == "match" for r in rows.values())


def bigger_steps(gm, example_inputs):
    """A planted bug in the update only: every in-place ``sub_`` subtracts 1.5 times what it
    was given (the loss and the gradients, computed before it, are right)."""
    for node in list(gm.graph.nodes):
        if node.op == "call_method" and node.target == "sub_":
            with gm.graph.inserting_before(node):
                scaled = gm.graph.call_function(operator.mul, (node.args[1], 1.5))
            node.args = (node.args[0], scaled)
    gm.recompile()
    return gm.forward


def test_a_wrong_update_is_caught_in_the_state_after_the_step(tmp_path):
    torch.manual_seed(2)
    linear = torch.nn.Linear(4, 2)

    def step(x):
        loss = linear(x).pow(2).mean()
        loss.backward()
        with torch.no_grad():
            for p in linear.parameters():
                p.sub_(0.1 * p.grad)
        return loss.detach()

    before = {n: p.detach().clone() for n, p in linear.named_parameters()}
    exploration = tcexplore.explore(step, torch.randn(3, 4), backend=bigger_steps,
                                    measure_timing=False)
    accuracy = exploration.accuracy
    assert all(r["ok"] for r in accuracy["outputs"] + accuracy["gradients"])
    bad = {r["path"] for r in accuracy["state_after_call"] if not r["ok"]}
    assert bad == {"linear.weight", "linear.bias"}
    assert not accuracy["ok"]
    assert accuracy["verdict"]["headline"].startswith(
        "Compiled outputs match eager, but after the step linear.weight, linear.bias differ")
    assert all(torch.equal(p, before[n]) for n, p in linear.named_parameters()), "put back"
    validate(exploration.document.data)
    page = exploration.save(tmp_path / "report.html").read_text(encoding="utf-8")
    assert "State after one training step" in page and "tcx-state-table" in page


def bigger_adam_steps(gm, example_inputs):
    """A planted bug in Adam's foreach update only: each parameter scaled after it."""
    for node in list(gm.graph.nodes):
        if node.op == "call_function" and node.target is torch._foreach_addcdiv_:
            with gm.graph.inserting_after(node):
                gm.graph.call_function(torch._foreach_mul_, (node.args[0], 1.01))
    gm.recompile()
    return gm.forward


def test_a_wrong_optimizer_step_is_searched_in_the_grad_mode_its_graph_ran_in():
    """The optimizer step's graph runs under no_grad: the first-divergence search runs it so
    (a search with gradients on put its in-place update on leaves that require grad, and
    failed), and searches no gradients through it."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, foreach=True)

    def step(x):
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        return loss.detach()

    step(torch.randn(4, 8))
    exploration = tcexplore.explore(step, torch.randn(4, 8), backend=bigger_adam_steps,
                                    measure_timing=False)
    accuracy = exploration.accuracy
    assert all(r["ok"] for r in accuracy["outputs"] + accuracy["gradients"])
    assert {r["path"] for r in accuracy["state_after_call"] if not r["ok"]} == {
        f"model.{i}.{p}" for i in (0, 2) for p in ("weight", "bias")}
    assert accuracy.get("divergence_error") is None, accuracy["divergence_error"]


def test_compare_in_this_process_leaves_everything_bit_equal():
    _warm_state()
    before = _state()
    comparison = tcexplore.compare(train_step, X, backends=["eager"],
                                   time_budget_s=0.02)
    assert comparison.rows[0]["status"] == "ok", comparison.rows[0]["error"]
    _assert_bit_equal(before, _state())


@pytest.mark.slow  # a spawned process imports torch and compiles: about 35 s on 2 cores
def test_compare_in_fresh_processes_leaves_everything_bit_equal():
    _warm_state()
    before = _state()
    comparison = tcexplore.compare(train_step, X, backends=["eager"], isolate="process",
                                   time_budget_s=0.02)
    assert comparison.rows[0]["status"] == "ok", comparison.rows[0]["error"]
    _assert_bit_equal(before, _state())


class _WrongTanhBackward(torch.autograd.Function):
    """tanh, with a backward 1.5 times too large: what a broken backend might run."""

    @staticmethod
    def forward(ctx, x):
        y = torch.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * (1 - y * y) * 1.5


def wrong_tanh(x):
    return _WrongTanhBackward.apply(x)


def wrong_tanh_backward(gm, example_inputs):
    """A backend running the graph as captured, but tanh with a wrong backward."""
    for node in gm.graph.nodes:
        if node.target is torch.tanh:
            node.target = wrong_tanh
    gm.recompile()
    return gm


def test_a_wrong_backward_is_caught_in_the_gradients_and_found_at_its_node(tmp_path):
    torch.manual_seed(1)
    linear = torch.nn.Linear(4, 4)
    head = torch.nn.Linear(4, 1)

    def step(x):
        loss = head(torch.tanh(linear(x) * 2)).sum()
        loss.backward()
        return loss.detach()

    exploration = tcexplore.explore(step, torch.randn(3, 4), backend=wrong_tanh_backward,
                                    measure_timing=False)
    accuracy = exploration.accuracy
    assert all(r["ok"] for r in accuracy["outputs"])
    bad = {r["path"] for r in accuracy["gradients"] if not r["ok"]}
    assert bad == {"linear.weight", "linear.bias"}  # head's gradient does not pass tanh
    assert not accuracy["ok"]
    found = accuracy["first_divergence"]
    assert found["of"] == "gradients" and found["target"].endswith("tanh"), found
    assert all(p.grad is None for p in [*linear.parameters(), *head.parameters()])
    validate(exploration.document.data)
    page = exploration.save(tmp_path / "report.html").read_text(encoding="utf-8")
    assert "but the gradients of linear.weight, linear.bias differ; first in the backward of node" in page
    assert "the backward: gradient of graph input" in page
    assert "What measuring left untouched" in page


TRAINING_CELLS = {
    "setup": """\
import copy
import torch
import tcexplore
%load_ext tcexplore
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.BatchNorm1d(16), torch.nn.ReLU(),
                            torch.nn.Linear(16, 1))
x = torch.randn(32, 8)
expected = copy.deepcopy(model)
expected(x).pow(2).mean().backward()""",
    "train": """\
%%tcompile --backend aot_eager --time-budget 0.05 --out trained
loss = model(x).pow(2).mean()
loss.backward()""",
    "check": """\
close = all(torch.allclose(p.grad, q.grad, rtol=1e-5, atol=1e-6)
            for p, q in zip(model.parameters(), expected.parameters()))
stats = torch.allclose(model[1].running_mean, expected[1].running_mean)
print(int(model[1].num_batches_tracked), close, stats)
print([r["path"] for r in trained.accuracy["gradients"]], trained.accuracy["ok"])""",
}


def test_a_tcompile_training_cell_leaves_exactly_one_steps_effects(tmp_path):
    for module in ("nbclient", "nbformat", "ipykernel"):
        pytest.importorskip(module, reason=f"{module} is in the `test` extra")
    from nbclient import NotebookClient

    from ..notebook_tour import checkout_env, named_notebook

    notebook = named_notebook(TRAINING_CELLS)
    client = NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute(env=checkout_env())
    printed = "".join(o.get("text", "") for o in notebook.cells[2].outputs)
    tracked, grads_close, stats_close, *_ = printed.split("\n")[0].split()
    assert (tracked, grads_close, stats_close) == ("1", "True", "True"), printed
    names = [f"model.{i}.{p}" for i in (0, 1, 3) for p in ("weight", "bias")]
    assert printed.split("\n")[1] == f"{names} True", printed


@pytest.mark.gpu
def test_a_cuda_training_step_under_explore_leaves_the_model_bit_equal():
    torch.manual_seed(0)
    # ReLU before BatchNorm: a Linear's bias right before BatchNorm has a gradient of zero
    # (BatchNorm subtracts it out), whose rounding noise Adam's update divides by itself:
    # eager and compiled then really differ in that bias after the step
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(),
                                torch.nn.BatchNorm1d(128), torch.nn.Linear(128, 8)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(256, 64, device="cuda")

    def step(x):  # model and optimizer reached through the closure
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        return loss.detach()

    step(x)
    before = (copy.deepcopy(model.state_dict()), [p.grad.clone() for p in model.parameters()],
              copy.deepcopy(optimizer.state_dict()), torch.cuda.get_rng_state())
    exploration = tcexplore.explore(step, x, time_budget_s=0.2, profile=True)
    assert exploration.error is None, exploration.error
    assert exploration.accuracy["gradients"] and exploration.accuracy["ok"], exploration.accuracy
    state, grads, opt_state, rng = before
    assert all(torch.equal(v, model.state_dict()[k]) for k, v in state.items())
    assert all(torch.equal(g, p.grad) for g, p in zip(grads, model.parameters()))
    now = optimizer.state_dict()["state"]
    assert all(torch.equal(s[key], now[i][key]) for i, s in opt_state["state"].items()
               for key in ("step", "exp_avg", "exp_avg_sq"))
    assert torch.equal(rng, torch.cuda.get_rng_state())


@pytest.mark.gpu
def test_a_reduce_overhead_cells_output_and_gradients_outlive_the_measuring_replays():
    """Under CUDA graphs a call's outputs, and the gradients its backward made, live in the
    graph pool that the next replay writes over; tcexplore replays the graphs to time them.
    What the cell bound and the gradients it left are readable afterwards, equal to eager's,
    and the isolation section says they are copies."""
    from IPython.core.interactiveshell import InteractiveShell

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(),
                                torch.nn.Linear(128, 8)).cuda()
    x = torch.randn(256, 64, device="cuda")
    expected = copy.deepcopy(model)
    expected_out = expected(x)
    expected_out.pow(2).mean().backward()
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "tcexplore")
    shell.user_ns.update(model=model, x=x)
    result = shell.run_cell("%%tcompile --mode reduce-overhead --time-budget 0.05 --out run\n"
                            "out = model(x)\nout.pow(2).mean().backward()\nout")
    assert result.success, result.error_in_exec
    assert torch.allclose(shell.user_ns["out"], expected_out, rtol=1e-4, atol=1e-5)
    for p, q in zip(model.parameters(), expected.parameters()):
        assert torch.allclose(p.grad, q.grad, rtol=1e-4, atol=1e-5)
    assert shell.run_cell("out.sum().item()").success  # the next cell reads it too
    restored = shell.user_ns["run"].document.data["isolation"]["restored"]
    assert "what the call returned: 1 tensor in CUDA-graph memory, handed back as a copy, " \
        "which the measuring replays cannot overwrite" in restored, restored


def test_untouched_puts_back_replaced_tensors_optimizer_state_and_rng_on_keyboard_interrupt():
    from tcexplore.measure.snapshot import untouched

    linear = torch.nn.Linear(2, 2)
    optimizer = torch.optim.Adam(linear.parameters())
    weight, values, x, rng = linear.weight, linear.weight.detach().clone(), torch.ones(1, 2), \
        torch.get_rng_state()

    def step(x):  # reaches linear and optimizer through its closure
        linear(x).sum().backward()
        optimizer.step()

    with pytest.raises(KeyboardInterrupt), untouched(step, (x,)):
        step(x)
        linear.weight = torch.nn.Parameter(torch.zeros(2, 2))
        linear.eval()
        torch.rand(3)
        raise KeyboardInterrupt
    assert linear.weight is weight and torch.equal(weight, values) and weight.grad is None
    assert linear.training and not optimizer.state and torch.equal(torch.get_rng_state(), rng)


def test_reachable_state_is_named_as_the_users_code_names_it():
    import functools

    from tcexplore.measure.snapshot import reachable

    def forward(module, x, scale=1.0):
        return MODEL(x) * scale + module(x)  # MODEL: a global, module: bound by the partial

    step = functools.partial(forward, torch.nn.Linear(8, 1))
    names = [name for name, _ in reachable(step, (X,), {"scale": torch.ones(1)})]
    assert names == ["module", "MODEL", "x", "scale"]

    def summed(*tensors, **more):
        return sum(tensors) + sum(more.values())

    names = [name for name, _ in reachable(summed, (X, X + 1), {"bias": torch.ones(1)})]
    assert names == ["tensors[0]", "tensors[1]", "more['bias']"]
    # a module is called with its forward's names; what no signature binds, by its place
    assert [name for name, _ in reachable(MODEL, (X,), {})] == ["Sequential", "input"]
    four = (X, X + 1, X + 2, X + 3)
    assert [name for name, _ in reachable(forward, four, {})][-4:] == [
        "args[0]", "args[1]", "args[2]", "args[3]"]
