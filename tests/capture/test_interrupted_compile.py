"""A compile cut short by KeyboardInterrupt, or whose backward fails, is a failed compile
that keeps what it had produced: never "ok"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from functorch.compile import make_boxed_func
from torch._dynamo.backends.common import aot_autograd

import tcexplore

from ..conftest import run_program

SIGINT_PROGRAM = Path(__file__).parents[1] / "fault_programs" / "sigint_in_partitioner.py"


def _boxed(gm, example_inputs):
    return make_boxed_func(gm)


def test_keyboard_interrupt_in_the_backend_is_a_failed_compile():
    def interrupting_backend(gm, example_inputs):
        raise KeyboardInterrupt

    torch.compiler.reset()
    with pytest.raises(KeyboardInterrupt), tcexplore.capture() as session:
        torch.compile(lambda x: x.exp() + 1, backend=interrupting_backend)(torch.randn(4))
    document = session.document
    (record,) = document.compiles
    assert record["status"] == "failed"
    assert record["error"]["type"] == "KeyboardInterrupt"
    assert "interrupted" in record["error"]["message"]
    assert document.summary["failures"] == 1
    assert record["dynamo_graph"]["nodes"]  # what was captured before the interrupt is kept


def test_a_failing_backward_compile_fails_its_compile():
    def broken_backward(gm, example_inputs):
        raise RuntimeError("no backward today")

    backend = aot_autograd(fw_compiler=_boxed, bw_compiler=broken_backward)
    torch.compiler.reset()
    x = torch.randn(4, requires_grad=True)
    with tcexplore.capture() as session:
        out = torch.compile(lambda t: (t.sin() * 3).sum(), backend=backend)(x)
        with pytest.raises(Exception, match="no backward today"):
            out.backward()
    (record,) = session.document.compiles
    assert record["status"] == "failed"
    assert "no backward today" in record["error"]["message"]
    assert record["aot_graphs"]["forward"]["nodes"]


@pytest.fixture(scope="module")
def sigint_run(tmp_path_factory):
    return run_program(str(SIGINT_PROGRAM), tmp_path_factory.mktemp("sigint"))


def test_sigint_during_aot_partitioning_under_run_is_a_failed_compile(sigint_run):
    assert sigint_run.returncode == 130
    document = sigint_run.document
    (record,) = document["compiles"]
    assert (record["status"], record["error"]["type"]) == ("failed", "KeyboardInterrupt")
    assert document["summary"]["failures"] == 1
    assert document["error"]["type"] == "KeyboardInterrupt"
    assert record["dynamo_graph"]["nodes"]


def test_an_imported_log_of_an_interrupted_compile_says_it_was_interrupted(sigint_run, tmp_path):
    out = tmp_path / "imported.json"
    subprocess.run([sys.executable, "-m", "tcexplore", "import", str(sigint_run.trace_log),
                    "--json", str(out)], check=True, capture_output=True, timeout=300)
    (record,) = json.loads(out.read_text())["compiles"]
    assert record["status"] == "failed"
    assert record["error"]["type"] is None  # a log does not hold the exception
    assert record["error"]["message"].startswith("interrupted")
