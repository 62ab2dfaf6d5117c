"""The example kernels in kernels/: correct against eager, and visible in a capture."""

from __future__ import annotations

import pytest
import torch

import kernels
import tcexplore

CASES = {
    "softmax": lambda x, w, b: kernels.softmax.op(x),
    "layer_norm": lambda x, w, b: kernels.layer_norm.op(x, w, b),
    "bias_gelu": lambda x, w, b: kernels.bias_gelu.op(x, b),
}
REFERENCES = {
    "softmax": lambda x, w, b: torch.softmax(x, -1),
    "layer_norm": lambda x, w, b: torch.nn.functional.layer_norm(x, x.shape[-1:], w, b),
    "bias_gelu": lambda x, w, b: torch.nn.functional.gelu(x + b, approximate="tanh"),
}


def _inputs(device):
    torch.manual_seed(0)
    return (torch.randn(33, 100, device=device), torch.randn(100, device=device),
            torch.randn(100, device=device))


def _check_against_eager(device):
    inputs = _inputs(device)
    for name, op in CASES.items():
        torch.testing.assert_close(op(*inputs), REFERENCES[name](*inputs), msg=name)


def test_kernels_match_eager_on_cpu():
    _check_against_eager("cpu")


def test_kernels_inside_torch_compile_are_captured_as_calls_of_their_op():
    def block(x, w, b):
        return kernels.softmax.op(kernels.layer_norm.op(kernels.bias_gelu.op(x, b), w, b)) * 2

    with tcexplore.capture() as session:
        out = torch.compile(block)(*_inputs("cpu"))
    torch.testing.assert_close(out, block(*_inputs("cpu")))
    document = session.document
    names = {k["name"] for c in document.compiles for o in c["output_codes"] for k in o["kernels"]}
    if not kernels.HAS_TRITON:
        assert {f"torch.ops.tcx_kernels.{n}.default" for n in CASES} <= names
    assert document.summary["unmapped_nodes"] == 0


@pytest.mark.gpu
def test_kernels_match_eager_on_cuda_and_appear_as_user_triton_kernels():
    _check_against_eager("cuda")

    def block(x, w, b):
        return kernels.softmax.op(kernels.layer_norm.op(kernels.bias_gelu.op(x, b), w, b)) * 2

    with tcexplore.capture() as session:
        torch.compile(block)(*_inputs("cuda"))
    user = [k for c in session.document.compiles for o in c["output_codes"]
            for k in o["kernels"] if k["kind"] == "triton" and "tl.program_id" in k["source"]
            and k["triton_kind"] == "user"]
    assert {k["name"].split("_kernel")[0] for k in user} >= {"softmax", "layer_norm", "bias_gelu"}
