"""Memory on CUDA (run on an NVIDIA GPU: `pytest -m gpu tests/measure/test_gpu_memory.py -s`; the
printed lines are the figures to quote): the allocator's peak against an independent
measurement, a Hugging Face GPT-2 training step's saved activations, reduce-overhead's pool."""

from __future__ import annotations

import pytest
import torch

import tcexplore
from tcexplore.common.formatting import format_bytes
from tcexplore.findings.memory import memory_finding
from tcexplore.measure.profiled_capture import capture

pytestmark = pytest.mark.gpu


def _mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(),
                               torch.nn.Linear(4096, 4096), torch.nn.GELU(),
                               torch.nn.Linear(4096, 1024)).cuda()


def _loss(model):
    def step(x):
        return model(x).square().mean()
    return step


def test_peak_bytes_within_two_percent_of_max_memory_allocated():
    model = _mlp()
    step = _loss(model)
    x = torch.randn(512, 1024, device="cuda")
    exploration = tcexplore.explore(step, x, memory=True, measure_timing=False)
    peaks = exploration.memory["peak_bytes"]
    assert exploration.memory["error"] is None and peaks["device"] == "cuda"
    compiled = torch.compile(step)
    independent = {}
    for side, fn in (("eager", step), ("compiled", compiled)):
        fn(x.clone()).backward()  # warm up (compiles the backward)
        model.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        fn(x.clone()).backward()
        torch.cuda.synchronize()
        independent[side] = torch.cuda.max_memory_allocated() - before
        model.zero_grad(set_to_none=True)
    for side in ("eager", "compiled"):
        # both above what was allocated before the call (the rest of the process differs)
        print(f"{side}: tcexplore {peaks[side]['above_before_bytes']} B, "
              f"max_memory_allocated - memory_allocated before {independent[side]} B")
        assert peaks[side]["above_before_bytes"] == pytest.approx(independent[side], rel=0.02)
    print(memory_finding(exploration.to_dict())["title"])


def test_gpt2_training_step_top_saved_activation_lines():
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    torch.manual_seed(0)
    config = transformers.GPT2Config(n_layer=2, n_head=4, n_embd=256, vocab_size=1000,
                                     n_positions=128)
    model = transformers.GPT2LMHeadModel(config).cuda()
    ids = torch.randint(0, 1000, (4, 128), device="cuda")
    compiled = torch.compile(model)
    with capture() as session:
        compiled(ids, labels=ids).loss.backward()
    summary = tcexplore.Exploration(session.document).memory
    lines = summary["saved_for_backward"]["lines"]
    assert lines, "no saved activations"
    for line in lines[:5]:
        print(f"{format_bytes(line['bytes'])} at {line['file']}:{line['line']} "
              f"in {line['function']}: {(line.get('code') or '').strip()[:60]}")
    assert any("modeling_gpt2" in line["file"] for line in lines[:5])
    activations = [t for t in summary["saved_for_backward"]["tensors"]
                   if t["kind"] == "activation"]
    assert all(t["user_location"] for t in activations)


def test_reduce_overhead_pool_size():
    model = _mlp().eval()
    x = torch.randn(512, 1024, device="cuda")
    with torch.no_grad():
        exploration = tcexplore.explore(model, x, mode="reduce-overhead", memory=True,
                                        measure_timing=False)
    memory = exploration.memory
    assert memory["error"] is None
    pools = memory["cudagraph_pools"]
    assert pools and pools[0]["reserved_bytes"] > 0
    for pool in pools:
        print(f"pool {pool['pool']}: reserved {format_bytes(pool['reserved_bytes'])}, "
              f"allocated {format_bytes(pool['allocated_bytes'])}, "
              f"{pool.get('share_of_compiled_peak', 0):.0%} of the compiled peak")
