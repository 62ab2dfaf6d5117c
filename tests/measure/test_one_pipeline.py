"""One pipeline (#42): a ``%%tcompile`` cell and ``explore()`` of the same code decide alike.

A training step that breaks (a print between the forward and the loss, and at
``loss.backward()``) and steps an SGD optimizer with momentum (made lazily by its first
step, so its second step recompiles), explored as ``explore(step, x, profile=True)`` of a
function in a file, then run through a real IPython InteractiveShell as a
``%%tcompile --profile`` cell whose body is the function's. Both go through
measure/pipeline.py; every field decided from what torch did (counts, findings, accuracy
and its rows, what was measured) is the same, and what differs is only where the code
lives (a cell or a file), what the clock said, and the state each leaves (#33's rules).
"""

from __future__ import annotations

import re

import pytest

import tcexplore

pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")

SETUP = """\
import torch
%load_ext tcexplore
torch.manual_seed(0)
model = torch.nn.Linear(8, 8)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(4, 8)"""

BODY = """\
y = model(x).relu()
print("", end="")  # the graph break
loss = y.pow(2).mean()
loss.backward()
opt.step()"""

# Findings whose words follow the clock (a verdict on the timing, the profile, a cost).
TIMED = {"timing", "profile", "run_view", "compile_time"}
# ... and those the clock decides whether to make at all (an eager gap's share of a step)
CLOCKED = TIMED | {"eager_time"}
SUMMARY = ("graphs", "graph_breaks", "recompiles", "output_codes", "kernels", "guards",
           "unmapped_nodes", "failures")


def _function(namespace, folder):
    """``step(x)``: the cell's body as a function of a file, returning the loss."""
    source = "def step(x):\n" + "".join(f"    {line}\n" for line in BODY.splitlines())
    source += "    return loss\n"
    path = folder / "step_module.py"
    path.write_text(source)
    exec(compile(source, str(path), "exec"), namespace)  # noqa: S102 - the test's own source
    return namespace["step"]


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    """explore() first: it leaves the optimizer as it found it (no state), so the cell's
    real run starts from the same state (its first step makes the momentum buffers).

    Dynamo starts empty, as in a fresh kernel: the cell compiles ``SGD.step`` as the user's
    code, beside the entries earlier tests' optimizers left on it, and torch logs a
    recompile for each of those it finds deallocated ("Cache line invalidated because
    L['self'] got deallocated"), which the function, compiled in its own recompile region,
    never meets."""
    import torch
    from IPython.core.interactiveshell import InteractiveShell

    torch.compiler.reset()

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        shell = InteractiveShell.instance()
        assert shell.run_cell(SETUP).success
        step = _function(shell.user_ns, tmp_path_factory.mktemp("step"))
        function = tcexplore.explore(
            step, shell.user_ns["x"], profile=True, time_budget_s=0.1
        ).document.data
        ran = shell.run_cell(f"%%tcompile --profile --time-budget 0.1 --out cell\n{BODY}")
        assert ran.success, ran.error_in_exec
        cell = shell.user_ns["cell"].document.data
    return cell, function


def _without_place(text: str) -> str:
    """A finding's words with where the code lives masked: a cell or a file and its line,
    and the function named (``<cell>`` or ``step``, a resume function's name included: a
    warm start names the compile it served), and numbers."""
    text = re.sub(r"cell \[\d+\](, line \d+)?", "PLACE", text)
    text = re.sub(r"\S*step_module\.py(:\d+|, line \d+)?", "PLACE", text)
    text = re.sub(r" in (step|<cell>|torch_dynamo_resume_in_[^\s:]+)(?=:)", "", text)
    text = re.sub(r"(?<![A-Za-z0-9<])(<cell>|step)(?![A-Za-z0-9>])", "FUNCTION", text)  # in a resume name too
    text = re.sub(r"\d+(\.\d+)?", "N", text)
    # a resume function in the user's words: "in <cell> (after its graph break at line 3)"
    return re.sub(r" in FUNCTION( \(after its graph break at line N\))?(?=:)", "", text)


def test_the_counts_are_the_same(documents):
    cell, function = documents
    assert {k: cell["summary"][k] for k in SUMMARY} == {k: function["summary"][k] for k in SUMMARY}
    assert cell["summary"]["graph_breaks"] >= 2 and cell["summary"]["recompiles"] == 1


def test_the_findings_are_the_same_but_for_where_the_code_lives(documents):
    def decided(data):
        return sorted(
            (f["kind"], f["severity"], _without_place(f["title"]))
            for f in data["findings"]
            # the cell, run second, is served from the entries explore() wrote: torch loads
            # no kernel -> node mapping for it, and says so (tests/capture/test_caches.py)
            if f["kind"] not in CLOCKED and f["kind"] != "unmapped"
        )

    cell, function = documents
    assert decided(cell) == decided(function)
    kinds = {kind for kind, _, _ in decided(cell)}
    assert {"graph_break", "recompile", "memory", "accuracy"} <= kinds
    timed = [sorted(f["kind"] for f in d["findings"] if f["kind"] in TIMED) for d in documents]
    assert timed[0] == timed[1] == sorted(TIMED)


def test_the_accuracy_is_decided_alike_over_outputs_and_gradients(documents):
    cell, function = documents
    for data in documents:
        assert data["accuracy"]["ok"] is True and data["accuracy"]["first_divergence"] is None
    gradients = [{r["path"] for r in d["accuracy"]["gradients"]} for d in documents]
    assert gradients[0] == gradients[1] == {"model.weight", "model.bias"}
    (loss,) = [r for r in cell["accuracy"]["outputs"] if r["path"] == "loss"]
    (returned,) = function["accuracy"]["outputs"]
    assert (loss["kind"], loss["ok"]) == (returned["kind"], returned["ok"]) == ("tensor", True)


def test_the_same_measurements_were_taken_and_the_state_left_by_each_rule(documents):
    cell, function = documents
    for data in documents:
        assert data["explore"]["error"] is None and data["error"] is None
        assert data["timing"]["compiled"]["samples"] >= 7
        assert data["profile"]["step"]["verdict"] and data["profile"]["run"]["steps"]["count"]
    sections = [{k for k in ("timing", "accuracy", "profile", "isolation", "memory", "tries")
                 if d.get(k)} for d in documents]
    assert sections[0] == sections[1] == {"timing", "accuracy", "profile", "isolation"}
    # explore() put the optimizer back as it found it; the cell kept what its real step made
    assert "opt: optimizer state of 0 parameters" in "; ".join(function["isolation"]["restored"])
    assert "opt: optimizer state of 2 parameters" in "; ".join(cell["isolation"]["restored"])
    # the input by the name the code gives it, a cell's and a function's parameter alike
    for data in documents:
        assert "x: tensor and its .grad" in data["isolation"]["restored"]
        assert [r["path"] for r in data["accuracy"]["inputs_after_call"]] == ["x"]
