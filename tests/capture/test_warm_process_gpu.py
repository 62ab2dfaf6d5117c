"""A Mixtral-style MoE on CUDA explored after an earlier compile of it in this process
counts as its first exploration did (graphs, graph breaks, recompiles)."""

from __future__ import annotations

import pytest
import torch

from tcexplore import explore

pytestmark = pytest.mark.gpu

COUNTS = ("graphs", "graph_breaks", "recompiles")


def tiny_moe() -> torch.nn.Module:
    """transformers' Mixtral from a tiny config when installed, else a hand-written MoE."""
    try:
        from transformers import MixtralConfig, MixtralForCausalLM
    except ImportError:
        return _TinyMoE()
    config = MixtralConfig(vocab_size=128, hidden_size=64, intermediate_size=128,
                           num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                           num_local_experts=4, num_experts_per_tok=2,
                           max_position_embeddings=64)
    return MixtralForCausalLM(config)


class _TinyMoE(torch.nn.Module):
    def __init__(self, dim: int = 64, experts: int = 4, top_k: int = 2):
        super().__init__()
        self.embed = torch.nn.Embedding(128, dim)
        self.gate = torch.nn.Linear(dim, experts, bias=False)
        self.experts = torch.nn.ModuleList(torch.nn.Sequential(
            torch.nn.Linear(dim, 2 * dim), torch.nn.SiLU(), torch.nn.Linear(2 * dim, dim))
            for _ in range(experts))
        self.top_k = top_k

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        h = self.embed(ids)
        weights, chosen = torch.topk(self.gate(h).softmax(-1), self.top_k, dim=-1)
        out = torch.zeros_like(h)
        for e, expert in enumerate(self.experts):
            mask = (chosen == e).any(-1, keepdim=True)
            out = out + mask * expert(h) * (weights * (chosen == e)).sum(-1, keepdim=True)
        return out


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_mixtral_style_moe_explored_after_an_earlier_compile_counts_as_the_first_time():
    torch.manual_seed(0)
    model = tiny_moe().cuda().eval()
    ids = torch.randint(0, 128, (2, 16), device="cuda")

    def step(tokens):
        out = model(tokens)
        return out.logits if hasattr(out, "logits") else out

    with torch.no_grad():
        first = explore(step, ids, measure_timing=False, find_divergence=False)
        compiled = torch.compile(step)  # the user's own compile, warm from now on
        compiled(ids)
        compiled(torch.randint(0, 128, (2, 24), device="cuda"))  # and its recompile
        again = explore(step, ids, measure_timing=False, find_divergence=False)
    counts = [{k: e.document.data["summary"][k] for k in COUNTS} for e in (first, again)]
    assert counts[0]["graphs"] >= 1
    assert counts[1] == counts[0]
    assert again.document.data["not_compiled"] == [] or all(
        entry["category"] == "skipfiles" for entry in again.document.data["not_compiled"])
