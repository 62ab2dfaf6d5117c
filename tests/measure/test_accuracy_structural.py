"""Accuracy compares outputs structurally, and random ops are a cause, not a compiler error.

Hugging Face GPT-2, BERT and Llama (tiny configs, no download) under inductor and
aot_eager: their ModelOutput and DynamicCache tensors are found by path and match, so no
false mismatch. A function drawing random numbers under Inductor diverges at a random op,
which is reported as such with the fix.
"""

from __future__ import annotations

import linecache

import pytest
import torch

import tcexplore
from tcexplore.document import validate
from tcexplore.findings.comparison import accuracy_status
from tcexplore.measure.first_divergence import find_first_divergence
from tcexplore.measure.output_diff import MAX_ROWS, diff_outputs
from tcexplore.notebook.cell import compile_cell
from tcexplore.notebook.run import run_cell
from tcexplore.render.html import render_html

transformers = pytest.importorskip("transformers")

BACKENDS = ("inductor", "aot_eager")


def _models() -> dict[str, torch.nn.Module]:
    torch.manual_seed(0)
    small = {"vocab_size": 100, "max_position_embeddings": 32}
    return {
        "gpt2": transformers.GPT2LMHeadModel(transformers.GPT2Config(
            n_layer=1, n_embd=32, n_head=2, vocab_size=100, n_positions=32)).eval(),
        "bert": transformers.BertModel(transformers.BertConfig(
            num_hidden_layers=1, hidden_size=32, num_attention_heads=2, intermediate_size=64,
            **small)).eval(),
        "llama": transformers.LlamaForCausalLM(transformers.LlamaConfig(
            num_hidden_layers=1, hidden_size=32, num_attention_heads=2, num_key_value_heads=2,
            intermediate_size=64, **small)).eval(),
    }


@pytest.fixture(scope="module")
def explored():
    """(model, backend) -> its exploration; GPT-2's come from compare() rows."""
    ids = torch.randint(0, 100, (1, 8), generator=torch.Generator().manual_seed(0))
    models = _models()
    grid = tcexplore.compare(models.pop("gpt2"), ids, backends=list(BACKENDS), time_budget_s=0.02)
    found = {("gpt2", row["backend"]): row for row in grid.rows}
    for name, model in models.items():
        for backend in BACKENDS:
            torch.compiler.reset()
            found[(name, backend)] = {"exploration": tcexplore.explore(
                model, ids, backend=backend, time_budget_s=0.02)}
    return found


CASES = [(name, backend) for name in ("gpt2", "bert", "llama") for backend in BACKENDS]


@pytest.mark.parametrize("name,backend", CASES)
def test_hugging_face_outputs_match_eager_with_no_false_mismatch(explored, name, backend):
    exploration = explored[(name, backend)]["exploration"]
    accuracy = exploration.accuracy
    assert exploration.error is None
    assert accuracy["ok"] is True and accuracy["first_divergence"] is None
    assert all(r["ok"] for r in accuracy["outputs"]), accuracy["outputs"]
    assert {r["kind"] for r in accuracy["outputs"]} <= {"tensor", "value"}
    assert exploration.summary()["accurate"] is True
    validate(exploration.document.data)


@pytest.fixture(scope="module")
def tensor_paths() -> dict[str, set[str]]:
    """Each model's output tensors by path, named as the installed transformers names the
    output's fields (5.24 renamed `past_key_values` to `cache`): eager, read directly."""
    ids = torch.randint(0, 100, (1, 8))
    paths = {}
    for name, model in _models().items():
        with torch.no_grad():
            out = model(ids)
        cache = [k for k, v in out.items() if isinstance(v, transformers.Cache)]
        paths[name] = ({k for k, v in out.items() if isinstance(v, torch.Tensor)}
                       | {f"{k}.layers[0].{part}" for k in cache for part in ("keys", "values")})
    return paths


@pytest.mark.parametrize("name,backend", CASES)
def test_model_output_and_cache_tensors_are_found_by_path(explored, tensor_paths, name, backend):
    outputs = explored[(name, backend)]["exploration"].accuracy["outputs"]
    tensors = {r["path"] for r in outputs if r["kind"] == "tensor"}
    assert tensors == tensor_paths[name]
    if name != "bert":  # the decoders' key/value cache is walked into, layer by layer
        assert any(p.endswith(".layers[0].keys") for p in tensors)


def test_gpt2_compare_rows_follow_the_structural_check(explored):
    inductor, aot_eager = explored[("gpt2", "inductor")], explored[("gpt2", "aot_eager")]
    assert inductor["status"] == aot_eager["status"] == "ok"
    assert aot_eager["max_abs_err"] == 0.0 and inductor["max_abs_err"] < 1e-5


def test_report_lists_each_cache_tensor_by_path(explored, tensor_paths):
    page = render_html(explored[("gpt2", "inductor")]["exploration"].document.data)
    for path in tensor_paths["gpt2"]:
        assert f"<code>{path}</code>" in page
    assert "Compiled outputs match eager within tolerance." in page
    assert "differs" not in page.split('class="tcx-accuracy-table"')[1].split("</table>")[0]


def doubled_with_activation(x):
    return x * 2, torch.relu


def test_a_non_tensor_leaf_is_listed_as_not_compared_and_is_no_mismatch():
    torch.compiler.reset()
    accuracy = tcexplore.explore(doubled_with_activation, torch.randn(4),
                                 backend="aot_eager", time_budget_s=0.02).accuracy
    tensor, function = accuracy["outputs"]
    assert tensor["path"] == "[0]" and tensor["ok"]
    assert function == {"path": "[1]", "kind": "not_compared", "ok": True,
                        "type": "builtin_function_or_method", "state": "other",
                        "label": "not compared"}
    assert accuracy["ok"] is True


def noisy(x):
    return torch.nn.functional.dropout(x, 0.5, training=True) + torch.randn(8, 4)


@pytest.fixture(scope="module")
def random_run():
    torch.compiler.reset()
    return tcexplore.explore(noisy, torch.randn(8, 4), time_budget_s=0.02)


def test_a_divergence_at_a_random_op_is_reported_as_random_with_the_fix(random_run):
    accuracy = random_run.accuracy
    assert accuracy["ok"] is False and accuracy["cause"] == "random"
    found = accuracy["first_divergence"]
    assert found["target"] == "torch.nn.functional.dropout"
    assert found["random_ops"] == accuracy["random_ops"]
    assert any("bernoulli" in op or "dropout" in op for op in found["random_ops"])
    assert accuracy["fallback_random_option"] == 'options={"fallback_random": True}'
    assert random_run.summary()["accuracy_cause"] == "random"
    assert accuracy_status(accuracy) == "random"
    page = render_html(random_run.document.data)
    assert "Compiled outputs differ from eager at a random op: node" in page
    assert "draw different random numbers" in page
    assert "options={&quot;fallback_random&quot;: True}" in page
    # Each differing output says why, in the warning's colour, never a red "differs".
    assert "differs (random ops)" in page
    assert '<span class="tcx-status tcx-status-failed">differs</span>' not in page
    validate(random_run.document.data)


def test_fallback_random_makes_random_ops_match():
    torch.compiler.reset()
    exploration = tcexplore.explore(noisy, torch.randn(8, 4), options={"fallback_random": True},
                                    time_budget_s=0.02)
    assert exploration.accuracy["ok"] is True


def test_random_ops_in_the_graphs_may_explain_a_difference_when_no_search_ran():
    torch.compiler.reset()
    accuracy = tcexplore.explore(noisy, torch.randn(8, 4), find_divergence=False,
                                 time_budget_s=0.02).accuracy
    assert accuracy["ok"] is False and accuracy["first_divergence"] is None
    assert accuracy["cause"] == "random_in_graph"
    assert "aten.randn.default" in accuracy["random_ops"]


def test_divergence_search_draws_each_graph_from_one_rng_state_and_restores_it(random_run):
    torch.compiler.reset()
    args = (torch.randn(8, 4),)
    state = torch.get_rng_state()
    found = find_first_divergence(noisy, args, {}, {"backend": "aot_eager"},
                                  random_run.document.data)
    assert found is None, "eager-RNG random ops agree when both sides start from one state"
    assert torch.equal(torch.get_rng_state(), state)


def test_a_tcompile_cell_calling_randn_is_random_with_the_magic_spelling():
    file = "/tmp/tcexplore-test-cell/randn.py"
    source = "x = torch.randn(8, 4)\ny = (x * 2).relu()\ny.sum()"
    raw = "%%tcompile\n" + source
    linecache.cache[file] = (len(raw), None, raw.splitlines(keepends=True), file)
    namespace = {"torch": torch}
    cell = compile_cell(source, file, namespace, first_line=2)
    torch.compiler.reset()
    run = run_cell(cell, namespace, torch.compile(cell.fn), compile_kwargs={"backend": "inductor"},
                   sections=lambda data: {}, time_budget_s=0.02)
    accuracy = run.exploration.accuracy
    assert accuracy["cause"] == "random" and accuracy["first_divergence"]["node"] == "x"
    assert accuracy["first_divergence"]["target"] == "torch.randn"
    assert accuracy["fallback_random_option"] == """--options '{"fallback_random": true}'"""
    assert {r["path"] for r in accuracy["outputs"]} == {"last expression", "x", "y"}


def test_many_leaves_are_bounded_and_marked_keeping_every_mismatch():
    eager = [torch.zeros(1) for _ in range(MAX_ROWS + 50)]
    compiled = [t.clone() for t in eager]
    compiled[-1] += 1
    rows = diff_outputs(eager, compiled)
    assert len(rows) == MAX_ROWS + 1
    assert rows[-1] == {"path": "", "kind": "truncated", "ok": True, "omitted": 50,
                        "omitted_mismatches": 0, "limit_reached": False}
    assert [r["path"] for r in rows if not r["ok"]] == [f"[{MAX_ROWS + 49}]"]


def test_an_object_referring_to_itself_is_walked_once():
    class Node:
        def __init__(self, value):
            self.value = value
            self.parent = self

    rows = diff_outputs(Node(torch.ones(2)), Node(torch.ones(2)))
    assert [(r["path"], r["kind"]) for r in rows] == [("value", "tensor"),
                                                      ("parent", "not_compared")]
    assert rows[1]["reason"] == "refers back to an enclosing object"


def test_plain_values_compare_by_value_and_floats_within_float32_tolerance():
    eager = {"loss": 0.5, "steps": 3, "name": "gpt", "mask": None, "inf": float("inf")}
    compiled = {"loss": 0.5 + 1e-8, "steps": 4, "name": "gpt", "mask": None, "inf": 1.0}
    rows = {r["path"]: r for r in diff_outputs(eager, compiled)}
    assert {p: r["ok"] for p, r in rows.items()} == {
        "['loss']": True, "['steps']": False, "['name']": True, "['mask']": True, "['inf']": False}
    assert rows["['inf']"]["max_abs_err"] is None, "JSON has no infinity"
