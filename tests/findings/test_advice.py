"""Advice tested against the facts of the finding (real torch.compile, tiny programs, the
eager backend where Inductor adds nothing to the finding): a program that compiles each
decoder layer on its own is not told to, a cache object's flag or **kwargs changing is
said to be expected, and a float lr keeps its tensor-lr fix."""

from __future__ import annotations

import pytest
import torch

from tcexplore.decided import Document
from tcexplore.measure.profiled_capture import capture

TENSOR_FIX = "pass it as a tensor"
REGIONAL = "regional compilation: torch.compile each"


def _findings(document, kind: str) -> list[dict]:
    return [f for f in document.data["findings"] if f["kind"] == kind]


@pytest.fixture(scope="module")
def regional_llama():
    """A 4-layer HF Llama from a small config, each decoder layer .compile()d, generating."""
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    config = transformers.LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64,
                                      num_hidden_layers=4, num_attention_heads=4,
                                      num_key_value_heads=2, max_position_embeddings=64)
    model = transformers.LlamaForCausalLM(config).eval()
    for layer in model.model.layers:
        layer.compile(backend="eager")
    torch.compiler.reset()
    with capture() as session, torch.no_grad():
        model.generate(torch.randint(0, 64, (1, 5)), max_new_tokens=2, do_sample=False)
    return session.document


def test_regional_compilation_is_not_advised_to_a_program_doing_it(regional_llama):
    (timing,) = _findings(regional_llama, "compile_time")
    assert REGIONAL not in (timing["advice"] or "")
    # the evidence the old advice read is there: one code object, the same graph, >2 times
    same = [d for d in timing["details"] if "compiled on its own already" in d]
    assert same and "forward" in same[0]
    Document(regional_llama.data)


def test_a_cache_flag_recompile_is_expected_not_a_tensor_fix(regional_llama):
    (recompile,) = _findings(regional_llama, "recompile")
    assert "is_initialized" in recompile["title"]
    assert "the bool" in recompile["title"] and "DynamicLayer" in recompile["title"]
    assert TENSOR_FIX not in recompile["advice"]
    assert "is_initialized: a Python bool" in recompile["advice"]
    assert "nothing to change" in recompile["advice"]
    # each layer's flag is named once, with one sentence; the sizes keep theirs
    assert recompile["advice"].count("a Python bool") == 1
    assert "layers[1].is_initialized" in recompile["advice"]
    assert "mark_dynamic" in recompile["advice"]


def test_a_kwargs_length_recompile_is_expected():
    @torch.compile(backend="eager")
    def step(x, **kwargs):
        return x * len(kwargs)

    with capture() as session:
        step(torch.randn(4), a=1)
        step(torch.randn(4), a=1, b=2)
    (recompile,) = _findings(session.document, "recompile")
    assert "the number of items in kwargs changed (it was 1 when compiled)" in recompile["title"]
    assert recompile["severity"] == "info"
    assert TENSOR_FIX not in recompile["advice"]
    assert "**kwargs compiles once per set of keyword arguments" in recompile["advice"]


def test_a_float_lr_recompile_keeps_the_tensor_lr_fix():
    torch.manual_seed(0)
    weight = torch.nn.Parameter(torch.randn(4))
    weight.grad = torch.ones(4)
    optimizer = torch.optim.SGD([weight], lr=0.1)
    step = torch.compile(optimizer.step, backend="eager")
    with capture() as session:
        for lr in (0.1, 0.05):
            optimizer.param_groups[0]["lr"] = lr
            step()
    (recompile,) = _findings(session.document, "recompile")
    assert "the float self.param_groups[0]['lr']" in recompile["title"]
    assert "(it was 0.1 when compiled)" in recompile["title"]
    assert recompile["severity"] == "warning"
    assert TENSOR_FIX in recompile["advice"] and "lr=torch.tensor(0.01)" in recompile["advice"]


def test_a_recompile_for_another_backend_is_told_so_not_made_dynamic():
    """The same code compiled again with another backend (a second %%tcompile cell with
    --backend): torch's BACKEND_MATCH reason gets the switch's advice, not a size's."""
    def double(x):
        return x * 2

    x = torch.randn(4)
    torch.compile(double, backend="eager")(x)
    with capture() as session:
        torch.compile(double, backend="aot_eager")(x)
    (recompile,) = _findings(session.document, "recompile")
    assert "BACKEND_MATCH" in recompile["title"]
    assert "another backend" in recompile["advice"]
    assert "mark_dynamic" not in recompile["advice"]
